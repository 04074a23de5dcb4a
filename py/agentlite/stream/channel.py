"""The content channel: inline thinking split off, the rest handed to the dialect's parser.

For `native` the content is prose; for the prompt dialects (`json`, `ndjson`, `ndjson-text`) it also
carries the tool calls, so the parser is the dialect's. Either way thinking never reaches the parser:
a call written inside thinking is not executed (docs/protocol.md, json).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from agentlite.events import Event, TextDelta, ThinkingDelta
from agentlite.stream.think import ThinkSplitter


class DialectParser(Protocol):
    def feed(self, text: str) -> list[Event]: ...

    def close(self, truncated: bool = False) -> list[Event]:
        """End of the reply: flush held text; calls still open are repaired, or invalid when truncated."""
        ...

    def abort(self, reason: str) -> list[Event]:
        """The reply failed: every call not yet ready becomes invalid with `reason`."""
        ...


class ProseParser:
    """The `native` content: all of it is text for the user."""

    def feed(self, text: str) -> list[Event]:
        return [TextDelta(text)] if text else []

    def close(self, truncated: bool = False) -> list[Event]:
        return []

    def abort(self, reason: str) -> list[Event]:
        return []


class ContentChannel:
    def __init__(self, parser: DialectParser) -> None:
        self.parser = parser
        self._splitter = ThinkSplitter()

    def feed(self, text: str) -> list[Event]:
        return self._route(self._splitter.feed(text))

    def close(self, truncated: bool = False) -> list[Event]:
        events = self._route(self._splitter.close())
        return events + self.parser.close(truncated)

    def abort(self, reason: str) -> list[Event]:
        return self.parser.abort(reason)

    def _route(self, pieces: Sequence[tuple[str, str]]) -> list[Event]:
        events: list[Event] = []
        for kind, text in pieces:
            if kind == "thinking":
                events.append(ThinkingDelta(text))
            else:
                events.extend(self.parser.feed(text))
        return events
