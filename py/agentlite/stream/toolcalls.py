"""Native tool calls: `delta.tool_calls` pieces accumulated into whole calls (docs/protocol.md, native,
origins: native-deltas).

Accumulation is by `index`. Without an index (Gemini's compatible endpoint, old Ollama) a new `id` starts a
new call and everything else continues the last one. The first usable id is kept (ids that change or read
"null" mid-call are ignored). One index reused for a second call (a name arriving after the first call's
arguments are complete JSON, under a new id or name) starts a new call. Calls are complete when the reply
finishes: `close()` turns each into `ToolCallReady` or `ToolCallInvalid`. A character whose UTF-16 halves
came in two pieces is joined again, whether the provider escaped the halves in the chunk or in the
arguments text (stream/surrogates.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentlite.events import Event, ProtocolNote, ToolCallInvalid, ToolCallReady, ToolCallStarted
from agentlite.stream import jsonvalue
from agentlite.stream.chunks import ToolDelta
from agentlite.stream.ids import CallIds
from agentlite.stream.json_repair import repaired
from agentlite.stream.preview import ArgumentPreview
from agentlite.stream.surrogates import mended, mended_value, split_high
from agentlite.stream.tool_specs import ToolCatalog


@dataclass
class _Call:
    index: int | None
    provider_id: str | None
    name: str | None = None
    id: str | None = None  # ours, set when the call starts
    pieces: list[str] = field(default_factory=list)
    size: int = 0
    preview: ArgumentPreview | None = None

    @property
    def raw_arguments(self) -> str:
        """The pieces joined as they came (a UTF-16 half may wait at the end for the next piece)."""
        if len(self.pieces) > 1:
            self.pieces[:] = ["".join(self.pieces)]
        return self.pieces[0] if self.pieces else ""

    @property
    def arguments(self) -> str:
        return mended(self.raw_arguments)

    @property
    def arguments_so_far(self) -> str:
        """The text to preview: a trailing high half is left out until its low half arrives."""
        return mended(split_high(self.raw_arguments)[0])


class ToolCallAccumulator:
    """`ToolDelta`s in; `ToolCallStarted` and `ToolArgPreview` as they stream, ready/invalid at `close()`."""

    def __init__(self, catalog: ToolCatalog | None = None, ids: CallIds | None = None) -> None:
        self.catalog = catalog or ToolCatalog()
        self.ids = ids or CallIds()
        self.calls: list[_Call] = []
        self._by_index: dict[int, _Call] = {}

    def feed(self, deltas: list[ToolDelta]) -> list[Event]:
        events: list[Event] = []
        for delta in deltas:
            call = self._call_for(delta)
            if call.name is None and delta.name:
                call.name = delta.name
            if delta.arguments:
                call.pieces.append(delta.arguments)
                call.size += len(delta.arguments)
            if call.id is None and call.name is not None:
                events.append(self._start(call))
            if call.preview is not None and call.preview.due(call.size):
                events.extend(call.preview.update(call.arguments_so_far))
        return events

    def close(self, finish: str | None = None, truncated: bool = False) -> list[Event]:
        """Every call, complete or not, in the order they began; afterwards the accumulator is empty."""
        events: list[Event] = []
        for call in self.calls:
            if call.id is None:
                events.append(self._start(call, started_event=False))
            events.extend(self._finish(call, finish, truncated))
        self.calls, self._by_index = [], {}
        return events

    def abort(self, reason: str) -> list[Event]:
        """The reply failed: no call may run."""
        events: list[Event] = []
        for call in self.calls:
            if call.id is None:
                events.append(self._start(call, started_event=False))
            events.append(ToolCallInvalid(str(call.id), reason, self._name(call)))
        self.calls, self._by_index = [], {}
        return events

    def _call_for(self, delta: ToolDelta) -> _Call:
        if delta.index is not None:
            call = self._by_index.get(delta.index)
            if call is None or self._reuses_index(call, delta):
                call = self._new(delta)
                self._by_index[delta.index] = call
            return call
        last = self.calls[-1] if self.calls else None
        if last is None or (delta.id is not None and delta.id != last.provider_id and last.provider_id):
            return self._new(delta)
        if self._reuses_index(last, delta):
            return self._new(delta)
        if last.provider_id is None and delta.id is not None:
            last.provider_id = delta.id
        return last

    def _reuses_index(self, call: _Call, delta: ToolDelta) -> bool:
        """A name arriving for a call whose arguments are already whole: the provider reused the slot."""
        if delta.name is None or call.name is None:
            return False
        new_identity = (delta.id is not None and delta.id != call.provider_id) or delta.name != call.name
        starts_object = (delta.arguments or "").lstrip().startswith("{")
        if not (new_identity or starts_object):
            return False
        return isinstance(jsonvalue.loads(call.arguments or "null"), dict)

    def _new(self, delta: ToolDelta) -> _Call:
        call = _Call(delta.index, delta.id)
        self.calls.append(call)
        return call

    def _start(self, call: _Call, started_event: bool = True) -> ToolCallStarted:
        ident = call.id = self.ids.claim(call.provider_id)
        name = self._name(call)
        fields = self.catalog.streamed(name)
        call.preview = ArgumentPreview(ident, fields) if fields else None
        return ToolCallStarted(ident, name)

    def _name(self, call: _Call) -> str:
        return self.catalog.canonical(call.name) if call.name else ""

    def _finish(self, call: _Call, finish: str | None, truncated: bool) -> list[Event]:
        ident, name = str(call.id), self._name(call)
        if not name:
            return [ToolCallInvalid(ident, "the tool call has no function name", None)]
        arguments, problem, note = parse_arguments(
            call.arguments, repair=finish != "length" and not truncated
        )
        if arguments is None:
            if finish == "length":
                problem = "the arguments were cut off at the output token limit; send a shorter call"
            elif truncated:
                problem = "the reply ended before the arguments were complete"
            return [ToolCallInvalid(ident, f"invalid arguments for {name}: {problem}", name)]
        events: list[Event] = []
        if note:
            events.append(ProtocolNote(f"tool call {ident}: {note}"))
        if call.preview is not None:
            events.extend(call.preview.final(arguments))
        events.append(ToolCallReady(ident, name, arguments))
        return events


def parse_arguments(text: str, repair: bool = True) -> tuple[dict[str, Any] | None, str, str]:
    """(arguments, problem, repair note): `{}` for empty text; a JSON string holding JSON is unwrapped."""
    if not text.strip():
        return {}, "", ""
    value = jsonvalue.loads(text)
    note = ""
    if jsonvalue.missing(value):
        fixed = repaired(text) if repair else None
        if fixed is None:
            return None, "the arguments are not valid JSON", ""
        value, note = fixed
    if isinstance(value, str):
        value = jsonvalue.loads(value)
    if not isinstance(value, dict):
        return None, "the arguments must be a JSON object", ""
    return mended_value(value, text), "", note
