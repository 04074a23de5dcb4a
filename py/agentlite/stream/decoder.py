"""The stream decoder the engine codes against: HTTP body bytes in, `agentlite.events` out.

Pipeline: bytes → UTF-8 (incremental) → SSE events → OpenAI chunks → content channel (inline thinking,
then the dialect's parser) and native tool-call accumulation. Each stage is its own object with
`feed()`/`close()`; this class wires them and decides how a reply ends:

- `Finish` is the last event of a good reply, sent once at `[DONE]` or at `close()`. Its reason is the first
  `finish_reason` the provider sent (later, repeated ones are ignored), `stop` when it sent none; `stop`
  reads `tool_calls` when calls became ready (Gemini and every prompt dialect say `stop` after calls), so
  the reason always tells whether tools are due. Usage, wherever it came, goes out once just before `Finish`.
- Native tool calls are ready at the end of the reply; ndjson tools are ready as soon as they verify.
- A failure in the stream (an error object, `finish_reason: "error"`) ends decoding: calls not yet ready
  become `ToolCallInvalid`, then `StreamFailed`; later input is ignored.
- A body that ends without `[DONE]` and without a `finish_reason` is truncated: open calls are invalid and
  `StreamFailed(network)` closes the reply, as a dropped connection would. An unterminated last SSE event
  is never dispatched (sse.py), so a reply whose finish reason sat only in that event is truncated too;
  one whose finish reason came before it is complete.
- A body with no event at all (a `200` whose stream is empty) fails as `empty_result` with the code
  `EMPTY_BODY`, not as a dropped connection: the server answered, with nothing (docs/protocol.md,
  "Empty stream"). A stream whose events are all undecodable fails as `protocol` even after `[DONE]`.
- A body that is JSON rather than SSE (a provider that ignored `stream: true`, or an error object sent with
  status 200) is decoded as one whole completion at `close()`.

Nothing raises but `StreamError` (only for a decoder bug, never for bad input).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from agentlite.errors import ErrorType, StreamError
from agentlite.events import (
    Event,
    Finish,
    ProtocolNote,
    StreamFailed,
    TextDelta,
    ThinkingDelta,
    ToolCallReady,
    Usage,
)
from agentlite.stream import jsonvalue
from agentlite.stream.channel import ContentChannel, DialectParser, ProseParser
from agentlite.stream.chunks import (
    ChunkDecoder,
    Content,
    Done,
    FinishReason,
    Part,
    Reasoning,
    Refusal,
    ToolDelta,
)
from agentlite.stream.ids import CallIds
from agentlite.stream.sse import SseDecoder, SseEvent
from agentlite.stream.tool_specs import ToolCatalog
from agentlite.stream.toolcalls import ToolCallAccumulator
from agentlite.stream.utf8 import Utf8Decoder

DIALECTS = ("native", "json", "ndjson", "ndjson-text")
TRUNCATED = "the response ended before the model finished (no finish_reason and no [DONE])"
EMPTY_BODY = "empty_body"  # the StreamFailed code of a 200 whose body held no event
EMPTY_MESSAGE = (
    "the endpoint answered but sent an empty stream (no event, no [DONE]); some servers do this when "
    "they fail after starting the reply, e.g. for a request longer than their context window"
)
UNDECODABLE = "nothing in the stream could be decoded: no event was a JSON chunk"
_LEADING = "\ufeff \t\r\n"  # what may come before the first byte that tells SSE from JSON
T = TypeVar("T")


def make_parser(dialect: str, catalog: ToolCatalog, ids: CallIds) -> DialectParser:
    """The content parser of a dialect (`auto` decodes as `native`: calls come from `tool_calls`)."""
    if dialect in ("native", "auto"):
        return ProseParser()
    if dialect == "json":
        from agentlite.stream.json_dialect import JsonDialectParser
        from agentlite.stream.markup import MarkupParser

        return MarkupParser(JsonDialectParser(catalog, ids))
    if dialect in ("ndjson", "ndjson-text"):
        from agentlite.stream.ndjson import NdjsonParser

        return NdjsonParser(catalog, ids, base64=dialect == "ndjson")
    raise ValueError(f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")


class StreamDecoder:
    """`feed(body_bytes) -> events`, any split; `close() -> events` at the end of the body."""

    def __init__(
        self, dialect: str = "native", tools: list[dict[str, Any]] | None = None, *, id_prefix: str = "call_"
    ) -> None:
        self.dialect = dialect
        self.catalog = ToolCatalog(tools)
        ids = CallIds(id_prefix)
        self._content = ContentChannel(make_parser(dialect, self.catalog, ids))
        self._calls = ToolCallAccumulator(self.catalog, ids)
        self._utf8 = Utf8Decoder()
        self._sse = SseDecoder()
        self._chunks = ChunkDecoder()
        self._body: list[str] | None = None  # set when the body is plain JSON, not SSE
        self._sniffed = False
        self._usage: Usage | None = None
        self._ready = 0
        self.finish_reason: str | None = None
        self.done = False  # [DONE] seen
        self.ended = False  # Finish or StreamFailed sent
        self.failed = False
        self.closed = False

    @classmethod
    def for_text(
        cls, dialect: str, tools: list[dict[str, Any]] | None = None, *, id_prefix: str = "call_"
    ) -> ContentDecoder:
        """A decoder of content text that is already extracted from the chunks (the demo model, tests)."""
        return ContentDecoder(dialect, tools, id_prefix=id_prefix)

    @property
    def truncated(self) -> bool:
        """The last SSE event was unterminated, or neither `[DONE]` nor a `finish_reason` came."""
        return self._sse.unterminated or not (self.done or self.finish_reason)

    def feed(self, data: bytes) -> list[Event]:
        return _guarded(self._feed, data)

    def close(self) -> list[Event]:
        return _guarded(self._close, None)

    def _feed(self, data: bytes | None) -> list[Event]:
        if self.closed or not data:
            return []
        text = self._utf8.feed(bytes(data))
        return self._text(text)

    def _text(self, text: str) -> list[Event]:
        if not self._sniffed:
            stripped = text.lstrip(_LEADING)
            if not stripped:
                return [] if not text else self._sse_text(text)
            self._sniffed = True
            if stripped[0] in "{[":
                self._body = []
        if self._body is not None:
            self._body.append(text)
            return []
        return self._sse_text(text)

    def _sse_text(self, text: str) -> list[Event]:
        return self._sse_events(self._sse.feed(text))

    def _sse_events(self, sse_events: list[SseEvent]) -> list[Event]:
        """One SSE event at a time, so `[DONE]` judges only the events before it, whatever the split."""
        events: list[Event] = []
        for sse_event in sse_events:
            if self.ended:
                break
            events += self._parts(self._chunks.feed([sse_event]))
        return events

    def _close(self, _: None) -> list[Event]:
        if self.closed:
            return []
        events = self._text(self._utf8.close())
        self.closed = True
        if self._body is not None:
            events += self._json_body("".join(self._body))
        else:
            events += self._sse_events(self._sse.close())
            events += self._parts(self._chunks.close())
        if self.ended:
            return events
        if self.done or self.finish_reason is not None:
            return events + self._end()
        if self._chunks.malformed and not self._chunks.decoded:
            return events + self._fail(StreamFailed(ErrorType.PROTOCOL.value, UNDECODABLE))
        if not (self._chunks.decoded or self._sse.unterminated):
            failure = StreamFailed(ErrorType.EMPTY_RESULT.value, EMPTY_MESSAGE, code=EMPTY_BODY)
            return events + self._fail(failure)
        return events + self._truncate()

    def _json_body(self, text: str) -> list[Event]:
        payload = jsonvalue.loads(text.lstrip(_LEADING))  # a BOM is no JSON, but some servers send one
        if not isinstance(payload, dict):
            return self._parts(
                [StreamFailed(ErrorType.PROTOCOL.value, "the response is neither SSE nor JSON")]
            )
        parts = self._chunks.whole(payload)
        if not self.ended and not any(isinstance(p, StreamFailed) for p in parts):
            parts.append(ProtocolNote("the endpoint answered with one JSON body instead of a stream"))
            parts.append(Done())
        return self._parts(parts)

    def _parts(self, parts: list[Part]) -> list[Event]:
        events: list[Event] = []
        deltas: list[ToolDelta] = []
        for part in parts:
            if self.ended:
                break
            if isinstance(part, ToolDelta):
                deltas.append(part)
                continue
            if deltas:
                events += self._calls.feed(deltas)
                deltas = []
            events += self._part(part)
        if deltas and not self.ended:
            events += self._calls.feed(deltas)
        return events

    def _part(self, part: Part) -> list[Event]:
        if isinstance(part, Content):
            events = self._content.feed(part.text)  # ndjson tools become ready mid-stream
            self._ready += sum(isinstance(e, ToolCallReady) for e in events)
            return events
        if isinstance(part, Reasoning):
            return [ThinkingDelta(part.text)]
        if isinstance(part, Refusal):
            return [TextDelta(part.text)]
        if isinstance(part, FinishReason):
            self.finish_reason = self.finish_reason or part.reason
            return []
        if isinstance(part, Done):
            self.done = True
            if self._chunks.malformed and not self._chunks.decoded:
                return self._fail(StreamFailed(ErrorType.PROTOCOL.value, UNDECODABLE))
            return self._end()
        if isinstance(part, Usage):
            self._usage = part
            return []
        if isinstance(part, StreamFailed):
            return self._fail(part)
        return [part] if isinstance(part, Event) else []

    def _end(self) -> list[Event]:
        events = self._content.close(truncated=self.finish_reason == "length")  # a cut call is not repaired
        events += self._calls.close(self.finish_reason)
        ready = self._ready + sum(isinstance(e, ToolCallReady) for e in events)
        reason = self.finish_reason or "stop"
        if reason == "stop" and ready:
            reason = "tool_calls"  # Gemini and every prompt dialect say "stop" after calls
        events += [self._usage] if self._usage else []
        self.ended = True
        return [*events, Finish(reason)]

    def _truncate(self) -> list[Event]:
        events = self._content.close(truncated=True)
        events += self._calls.abort("the reply was cut off before the call was complete")
        events += [self._usage] if self._usage else []
        self.ended = self.failed = True
        return [*events, StreamFailed(ErrorType.NETWORK.value, TRUNCATED)]

    def _fail(self, failure: StreamFailed) -> list[Event]:
        reason = f"the reply failed before the call could run: {failure.message}"
        events = self._content.abort(reason) + self._calls.abort(reason)
        self.ended = self.failed = True
        return [*events, failure]


class ContentDecoder:
    """Content text in (no SSE, no chunks), the same events out; `close()` ends with `Finish`."""

    def __init__(
        self, dialect: str, tools: list[dict[str, Any]] | None = None, *, id_prefix: str = "call_"
    ) -> None:
        self.catalog = ToolCatalog(tools)
        self._content = ContentChannel(make_parser(dialect, self.catalog, CallIds(id_prefix)))
        self._ready = 0
        self.closed = False

    def feed(self, text: str) -> list[Event]:
        return self._count(_guarded(self._content.feed, text)) if not self.closed else []

    def close(self, truncated: bool = False) -> list[Event]:
        if self.closed:
            return []
        self.closed = True
        events = self._count(_guarded(self._content.close, truncated))
        return [*events, Finish("tool_calls" if self._ready else "stop")]

    def _count(self, events: list[Event]) -> list[Event]:
        self._ready += sum(isinstance(e, ToolCallReady) for e in events)
        return events


def _guarded(step: Callable[[T], list[Event]], argument: T) -> list[Event]:
    """Run one decoding step; a bug inside becomes a typed error instead of an arbitrary exception."""
    try:
        return step(argument)
    except StreamError:
        raise
    except Exception as error:  # a decoder bug: keep the caller's error handling typed
        message = f"the stream decoder failed: {type(error).__name__}: {error}"
        raise StreamError(ErrorType.PROTOCOL, message) from error
