"""The `ndjson` and `ndjson-text` dialects: records, chunked streams, and tools that run while the reply
goes on (docs/protocol.md, ndjson and ndjson-text; origins: streaming).

Records come from ndjson_records.py, streams are checked by ndjson_streams.py; this module binds them:
a `thinking` or `text` record names the stream that carries its text, a `tool` record names the streams of
its large fields (`<field>_b64`). Decoded text goes out as it arrives (thinking and answer text as deltas,
tool fields as previews of the text so far, once per chunk record). A tool is ready as soon as its record
and every stream it refers to have ended and verified; a stream that breaks fails only the tools that refer
to it. Chunks of a stream may come before the record that refers to it; they are shown when it arrives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.events import (
    Event,
    ProtocolNote,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
)
from agentlite.stream import jsonvalue
from agentlite.stream.ids import CallIds
from agentlite.stream.json_repair import repaired
from agentlite.stream.ndjson_records import Item, Prose, Record, RecordSplitter
from agentlite.stream.ndjson_streams import ChunkStream, StreamTable
from agentlite.stream.preview import LABEL, preview_due
from agentlite.stream.surrogates import mended_value
from agentlite.stream.tool_specs import ToolCatalog

_STREAM_KEY = re.compile(r"(.+?)_b(?:s)?64")
_JSON_STRING = r'"((?:[^"\\]|\\.)*)"'
_BROKEN_STREAM = re.compile(r'"bs64_id"\s*:\s*' + _JSON_STRING)
_BROKEN_TOOL = re.compile(r'"type"\s*:\s*"tool"')
_BROKEN_ID = re.compile(r'"id"\s*:\s*' + _JSON_STRING)
_BROKEN_NAME = re.compile(r'"tool"\s*:\s*' + _JSON_STRING)
_STREAM_REFS = ("data_b64", "data_bs64", "bs64_id", "stream")
_LITERAL_TEXT = ("text", "content", "data")


@dataclass(frozen=True)
class _Binding:
    kind: str  # "thinking", "text" or "tool"
    tool_id: str | None = None
    field: str | None = None


@dataclass
class _Tool:
    id: str
    name: str
    literal: dict[str, Any]
    refs: dict[str, str] = field(default_factory=dict)  # field -> stream id
    shown: dict[str, int] = field(default_factory=dict)  # field -> length of its last preview
    finished: bool = False


class NdjsonParser:
    """Content text in; text, thinking, tool and note events out."""

    def __init__(self, catalog: ToolCatalog | None = None, ids: CallIds | None = None, base64: bool = True):
        self.catalog = catalog or ToolCatalog()
        self.ids = ids or CallIds()
        self.base64 = base64
        self._splitter = RecordSplitter()
        self._table = StreamTable()
        self._bindings: dict[str, list[_Binding]] = {}
        self._tools: dict[str, _Tool] = {}
        self._events: list[Event] = []
        self._in_prose = False
        self._noted: set[str] = set()  # streams whose failure was noted
        self.done = False

    def feed(self, text: str) -> list[Event]:
        for item in self._splitter.feed(text):
            self._item(item)
        return self._drain()

    def close(self, truncated: bool = False) -> list[Event]:
        for item in self._splitter.close():
            self._item(item)
        for tool in self._tools.values():
            if not tool.finished:
                self._invalid(tool, "; ".join(self._waiting_for(tool)))
        for stream in self._table.streams.values():
            if stream.id not in self._bindings and stream.text:
                self._events.append(TextDelta(stream.text))
                self._events.append(ProtocolNote(f"stream {stream.id} was never referenced; shown as text"))
        return self._drain()

    def abort(self, reason: str) -> list[Event]:
        for tool in self._tools.values():
            if not tool.finished:
                self._invalid(tool, reason)
        return self._drain()

    def _drain(self) -> list[Event]:
        events, self._events = self._events, []
        return events

    def _item(self, item: Item) -> None:
        """One note per run of prose lines, not one per line: a model that forgets the format writes many."""
        if isinstance(item, Prose):
            self._events.append(TextDelta(item.text))
            if not self._in_prose:
                self._events.append(
                    ProtocolNote(f"text outside the ndjson records: {item.text.strip()[:80]!r}")
                )
            self._in_prose = True
            return
        self._in_prose = False
        if isinstance(item, Record):
            self._record(item.value)
        else:
            self._broken(item.text)

    def _record(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind in ("bs64_start", "bs64_chunk", "bs64_end"):
            self._stream_record(str(kind), record)
        elif kind in ("thinking", "text"):
            self._text_record(str(kind), record)
        elif kind == "tool" or (kind is None and "tool" in record):
            self._tool_record(record)
        elif kind == "done":
            self.done = True
        else:
            self._events.append(ProtocolNote(f"ignored a record of unknown type {str(kind)[:40]!r}"))

    def _stream_record(self, kind: str, record: dict[str, Any]) -> None:
        stream_id = _identifier(record.get("bs64_id", record.get("id")))
        if stream_id is None:
            self._events.append(ProtocolNote(f"ignored a {kind} record without bs64_id"))
            return
        if kind == "bs64_start":
            self._changed(self._table.start(stream_id))
        elif kind == "bs64_end":
            self._changed(self._table.end(stream_id, record.get("hash")))
        else:
            self._chunk(stream_id, record)

    def _chunk(self, stream_id: str, record: dict[str, Any]) -> None:
        if "data_b64" in record:
            data, base64 = record["data_b64"], True
        else:
            data, base64 = record.get("data"), "data" not in record and self.base64
        before = self._table.get(stream_id)
        was_ok = before is not None and before.ok
        stream, text = self._table.chunk(stream_id, record.get("seq"), data, base64)
        if was_ok:
            self._events.append(ProtocolNote(f"ignored a chunk for stream {stream_id} after its bs64_end"))
        if text:
            self._forward(stream, text)
        if stream.error is not None or stream.ended:  # otherwise no tool or note can have changed
            self._changed(stream)

    def _text_record(self, kind: str, record: dict[str, Any]) -> None:
        tool_id = _identifier(record.get("id")) if kind == "thinking" else None
        binding = _Binding(kind, tool_id)
        stream_id = next((_identifier(record[k]) for k in _STREAM_REFS if k in record), None)
        if stream_id is not None:
            self._bind(stream_id, binding)
            return
        literal = next((record[k] for k in _LITERAL_TEXT if isinstance(record.get(k), str)), "")
        if literal:
            self._show(binding, literal, None)

    def _tool_record(self, record: dict[str, Any]) -> None:
        name = record.get("tool", record.get("name"))
        tool_id = self.ids.claim(_identifier(record.get("id")))
        data = record.get("data", record.get("arguments", {}))
        if isinstance(data, str):
            data = jsonvalue.loads(data)
        if not isinstance(name, str) or not name.strip() or not isinstance(data, dict):
            problem = (
                "has no tool name" if not isinstance(name, str) or not name.strip() else "data is no object"
            )
            self._events.append(ToolCallInvalid(tool_id, f"invalid_format: the tool record {problem}", None))
            return
        tool = _Tool(tool_id, self.catalog.canonical(name.strip()), {})
        tool.literal, tool.refs = self._fields(tool.name, data)
        self._tools[tool_id] = tool
        self._events.append(ToolCallStarted(tool_id, tool.name))
        if tool.refs and isinstance(tool.literal.get(LABEL), str):  # the file it writes, named at once
            self._events.append(ToolArgPreview(tool_id, LABEL, tool.literal[LABEL]))
        for field_name, stream_id in tool.refs.items():
            self._bind(stream_id, _Binding("tool", tool_id, field_name))
        self._check(tool)

    def _fields(self, name: str, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Literal arguments and stream references (`<field>_b64`, and the note's `new_bs64` spelling)."""
        literal: dict[str, Any] = {}
        refs: dict[str, str] = {}
        for key, value in data.items():
            match = _STREAM_KEY.fullmatch(key)
            if match is None:
                literal[key] = value
                continue
            base = match.group(1)
            target = self.catalog.stream_field(name, base)
            stream_id = _identifier(value)
            known_stream = stream_id is not None and stream_id in self._table.streams
            if target is None and (known_stream or (not self.catalog.known(name) and base != "path")):
                target = base
            if target is not None and stream_id is not None:
                refs[target] = stream_id
            else:
                literal[base] = value  # e.g. the design note's "path_b64": "src/a.ts", a plain path
        for name_of_field in refs:
            literal.pop(name_of_field, None)
        return literal, refs

    def _bind(self, stream_id: str, binding: _Binding) -> None:
        self._bindings.setdefault(stream_id, []).append(binding)
        stream = self._table.get(stream_id)
        if stream is not None and stream.length:
            self._show(binding, stream.text, stream)

    def _forward(self, stream: ChunkStream, text: str) -> None:
        for binding in self._bindings.get(stream.id, ()):
            self._show(binding, text, stream)

    def _show(self, binding: _Binding, piece: str, stream: ChunkStream | None) -> None:
        """Thinking and text as deltas; a tool field as its text so far, when a preview is due."""
        if binding.kind == "thinking":
            self._events.append(ThinkingDelta(piece, binding.tool_id))
        elif binding.kind == "text":
            self._events.append(TextDelta(piece))
        elif binding.tool_id is not None and binding.field is not None:
            tool = self._tools.get(binding.tool_id)
            if tool is not None and not tool.finished and stream is not None:
                self._preview(tool, binding.field, stream, final=False)

    def _preview(self, tool: _Tool, field_name: str, stream: ChunkStream, final: bool) -> None:
        shown = tool.shown.get(field_name, 0)
        if stream.length > shown and (final or preview_due(shown, stream.length)):
            tool.shown[field_name] = stream.length
            self._events.append(ToolArgPreview(tool.id, field_name, stream.text))

    def _changed(self, stream: ChunkStream) -> None:
        """Re-check the tools that refer to the stream; a failed thinking or text stream gets a note."""
        for binding in self._bindings.get(stream.id, ()):
            tool = self._tools.get(binding.tool_id or "")
            if binding.kind == "tool" and tool is not None:
                self._check(tool)
            elif binding.kind != "tool" and stream.error and stream.id not in self._noted:
                self._noted.add(stream.id)
                self._events.append(ProtocolNote(stream.error))

    def _check(self, tool: _Tool) -> None:
        """Ready when every stream has ended and verified; invalid at the first stream that failed."""
        if tool.finished:
            return
        streams = [(f, self._table.get(s)) for f, s in tool.refs.items()]
        errors = [s.error for _, s in streams if s is not None and s.error]
        if errors:
            self._invalid(tool, "; ".join(errors))
            return
        if any(s is None or not s.ok for _, s in streams):
            return
        arguments = mended_value(dict(tool.literal))
        unverified: list[str] = []
        for field_name, stream in streams:
            assert stream is not None
            self._preview(tool, field_name, stream, final=True)
            arguments[field_name] = stream.text
            if not stream.hash_given:
                unverified.append(f"{field_name}={stream.sha256}")
        note = f"client-computed {', '.join(unverified)} (the model sent no hash)" if unverified else None
        tool.finished = True
        self._events.append(ToolCallReady(tool.id, tool.name, arguments, note))

    def _waiting_for(self, tool: _Tool) -> list[str]:
        problems = []
        for stream_id in tool.refs.values():
            stream = self._table.get(stream_id)
            if stream is None:
                problems.append(f"stream {stream_id} never started")
            elif not stream.ended:
                problems.append(f"stream {stream_id} never ended (no bs64_end)")
        return problems or ["the reply ended before the tool was complete"]

    def _invalid(self, tool: _Tool, problem: str) -> None:
        tool.finished = True
        reason = f"{problem}; the tool did not run. Send the call again with complete streams."
        self._events.append(ToolCallInvalid(tool.id, reason, tool.name))

    def _broken(self, text: str) -> None:
        """A record that is not JSON: repaired once if unambiguous, else it fails what it names."""
        fixed = repaired(text.strip())
        if fixed is not None and isinstance(fixed[0], dict):
            self._events.append(ProtocolNote(f"repaired an ndjson record ({fixed[1]})"))
            self._record(fixed[0])
            return
        stream = _BROKEN_STREAM.search(text)
        if stream is not None:
            target = self._table.get(stream.group(1)) or self._table.start(stream.group(1))
            target.fail("one of its records is not valid JSON")
            self._changed(target)
            return
        if _BROKEN_TOOL.search(text):
            ident, name = _BROKEN_ID.search(text), _BROKEN_NAME.search(text)
            tool_id = self.ids.claim(ident.group(1) if ident else None)
            reason = "invalid_format: the tool record is not valid JSON; the tool did not run"
            self._events.append(
                ToolCallInvalid(tool_id, reason, self.catalog.canonical(name.group(1)) if name else None)
            )
            return
        self._events.append(ProtocolNote(f"dropped a malformed record: {text.strip()[:80]!r}"))


def _identifier(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = str(value).strip()
    return text or None
