"""A WHATWG server-sent-events decoder (html.spec.whatwg.org, "event stream interpretation").

Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next are one line
end). `data` lines join with LF; a blank line dispatches; `retry` sets the reconnection time (digits only,
the MCP client resumes by it). Unknown fields are kept on the event instead of being dropped, because old
llama.cpp servers report failures as an `error:` field line. At the end of the body an event without its
blank line is discarded, as the spec says: it may be cut anywhere (half a JSON chunk, a finish reason that
never came), so the decoder only records that the body was truncated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_EOL = re.compile(r"\r\n|\r|\n")
_KEPT_FIELDS = frozenset({"error"})  # fields outside the standard that mean something to a provider


@dataclass(frozen=True)
class SseEvent:
    """One dispatched event; `data` is None when the event carried only other fields."""

    data: str | None
    event: str = "message"
    id: str | None = None
    fields: dict[str, str] = field(default_factory=dict)


class SseDecoder:
    """Text in, `SseEvent`s out, across any split of the text."""

    def __init__(self) -> None:
        self._pending: list[str] = []  # pieces of the current, unterminated line
        self._skip_lf = False  # the previous chunk ended with CR
        self._started = False
        self._data: list[str] = []
        self._event = ""
        self._fields: dict[str, str] = {}
        self.last_event_id: str | None = None
        self.retry: int | None = None  # the reconnection time the stream asked for, in milliseconds
        self.unterminated = False  # set by close(): the body ended inside an event, which was discarded

    def feed(self, text: str) -> list[SseEvent]:
        if not text:
            return []
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        if self._skip_lf:
            self._skip_lf = False
            text = text.removeprefix("\n")
        events: list[SseEvent] = []
        start = 0
        for match in _EOL.finditer(text):
            self._pending.append(text[start : match.start()])
            line = "".join(self._pending)
            self._pending = []
            self._line(line, events)
            start = match.end()
        if start < len(text):
            self._pending.append(text[start:])
        self._skip_lf = text.endswith("\r")
        return events

    def close(self) -> list[SseEvent]:
        """Discard an unterminated last event (never dispatched) and remember that there was one."""
        if self._pending or self._in_event():
            self.unterminated = True
        self._pending = []
        self._data, self._event, self._fields = [], "", {}
        return []

    def _in_event(self) -> bool:
        return bool(self._data or self._fields or self._event)

    def _line(self, line: str, events: list[SseEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        if line.startswith(":"):
            return
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif name == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value)
        elif name in _KEPT_FIELDS:
            self._fields[name] = value

    def _dispatch(self, events: list[SseEvent]) -> None:
        if self._data or self._fields:
            data = "\n".join(self._data) if self._data else None
            events.append(SseEvent(data, self._event or "message", self.last_event_id, self._fields))
        self._data = []
        self._event = ""
        self._fields = {}
