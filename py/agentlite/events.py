"""One vocabulary of stream events for every tool-call dialect (docs/protocol.md).

Decoders produce these; the engine consumes them and forwards them to the UI as plain dicts
(`to_dict()`, with a `kind` field). Frozen dataclasses so tests can compare event lists with `==`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True)
class TextDelta(Event):
    """Answer text for the user."""

    kind: ClassVar[str] = "text"
    text: str


@dataclass(frozen=True)
class ThinkingDelta(Event):
    """Reasoning text, shown apart from the answer; `tool_id` ties ndjson thinking to its tool."""

    kind: ClassVar[str] = "thinking"
    text: str
    tool_id: str | None = None


@dataclass(frozen=True)
class ToolCallStarted(Event):
    kind: ClassVar[str] = "tool_started"
    id: str
    name: str


@dataclass(frozen=True)
class ToolArgPreview(Event):
    """The text so far of one streamed argument (`content`, `newCode`, `command` ...)."""

    kind: ClassVar[str] = "tool_preview"
    id: str
    field: str
    text: str


@dataclass(frozen=True)
class ToolCallReady(Event):
    """A complete, well-formed call; the engine may run it now (ndjson: while the stream goes on)."""

    kind: ClassVar[str] = "tool_ready"
    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    note: str | None = None  # e.g. the client-computed sha256 when the model sent "hash": null


@dataclass(frozen=True)
class ToolCallInvalid(Event):
    """A call that can never run; `reason` is written to be sent back to the model."""

    kind: ClassVar[str] = "tool_invalid"
    id: str
    reason: str
    name: str | None = None


@dataclass(frozen=True)
class ProtocolNote(Event):
    """A tolerated deviation from the dialect (prose between ndjson records, a repaired object)."""

    kind: ClassVar[str] = "protocol_note"
    message: str


@dataclass(frozen=True)
class Usage(Event):
    kind: ClassVar[str] = "usage"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None


@dataclass(frozen=True)
class Finish(Event):
    """The model's finish reason (`stop`, `tool_calls`, `length`, `content_filter`, ...)."""

    kind: ClassVar[str] = "finish"
    reason: str


@dataclass(frozen=True)
class StreamFailed(Event):
    """A typed failure inside the stream (an in-stream error object, a truncated stream)."""

    kind: ClassVar[str] = "stream_error"
    error_type: str
    message: str
    status: int | None = None
    code: str | None = None
