"""Every event a chat sends to the page, one frozen dataclass per `kind`, serialised only by `event_dict`.

The page receives `{type: "event", chat, event}` with `event = event_dict(...)`: the `kind` first, then the
fields in the order declared here. A field listed in a class's `OMIT_WHEN_NONE` is left out while it is
None (the page tests for its presence). The build writes `WIRE_FIELDS` to
`web/src/generated/chat-events.json`, the page's only copy (buildsys/build/page_facts.py). Stream events
(`agentlite.events`: text, thinking, tool_started, ...) are forwarded as the decoders make them. Once a
chat is closed it sends nothing more, even while its turn winds down.

What the page sends back goes to `ChatSession`: `approve(call_id, approved, batch)`, `decide(choice)`,
`stop()`, `configure(mode=, max_rounds=, auto_approve=, context_window=, reserve=)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

from agentlite.errors import ModelError
from agentlite.events import (
    Event,
    Finish,
    ProtocolNote,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
    Usage,
)


@dataclass(frozen=True, kw_only=True)
class ChatEvent:
    kind: ClassVar[str] = "event"
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()


# --- turn and state ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnStarted(ChatEvent):
    """A user message started turn `turn` (the id every workspace change of the turn is recorded under);
    `id` is the user message's. `regenerate`: a message already shown, answered again (no new bubble)."""

    kind: ClassVar[str] = "turn_start"
    turn: str
    id: str
    text: str
    mode: str
    dialect: str
    regenerate: bool


@dataclass(frozen=True, kw_only=True)
class StateChanged(ChatEvent):
    """The chat's state machine moved (`engine.state.ChatState` values); `round` (1-based) comes with
    `requesting`."""

    kind: ClassVar[str] = "state"
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"round"})
    state: str
    previous: str
    round: int | None = None


@dataclass(frozen=True, kw_only=True)
class TurnEnded(ChatEvent):
    """The turn is over (completed | error | cancelled); `turn` is None for a queued turn stopped before
    it began."""

    kind: ClassVar[str] = "turn_end"
    turn: str | None
    state: str
    rounds: int


@dataclass(frozen=True, kw_only=True)
class TitleChanged(ChatEvent):
    """The chat's title: its first user message, cut to 40 characters."""

    kind: ClassVar[str] = "title"
    title: str


# --- assistant messages (one bubble per model round; a `length` continuation keeps writing into it) ----


@dataclass(frozen=True, kw_only=True)
class MessageStarted(ChatEvent):
    kind: ClassVar[str] = "message_start"
    id: str
    role: str
    turn: str
    round: int


@dataclass(frozen=True, kw_only=True)
class MessageEnded(ChatEvent):
    """done | interrupted (stopped, or the connection dropped: the partial text is kept) | error."""

    kind: ClassVar[str] = "message_end"
    id: str
    state: str


# --- tool calls -------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ToolStatus(ChatEvent):
    """pending, awaiting-approval, executing, completed, failed or rejected. `arguments` comes with
    pending, `reason` with awaiting-approval and a refused call, `result` ({code, message, data,
    errorType}) and `duration_ms` with the final states."""

    kind: ClassVar[str] = "tool_status"
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"arguments", "reason", "result", "duration_ms"})
    id: str
    name: str
    status: str
    arguments: dict[str, Any] | None = None
    reason: str | None = None
    result: dict[str, Any] | None = None
    duration_ms: int | None = None


@dataclass(frozen=True, kw_only=True)
class ApprovalAsked(ChatEvent):
    """The call waits for the user; answering with batch=true covers every call of reply `batch` that asks
    the same kind of question (`ask`, an `engine.approvals.Ask` value, which the answer names back)."""

    kind: ClassVar[str] = "approval"
    id: str
    name: str
    arguments: dict[str, Any]
    reason: str
    batch: str
    ask: str = ""


# --- errors, retries and decisions --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RetryScheduled(ChatEvent):
    kind: ClassVar[str] = "retry"
    attempt: int
    of: int
    wait_s: float
    error_type: str
    message: str


@dataclass(frozen=True, kw_only=True)
class TurnFailed(ChatEvent):
    """The error banner. final=False: a `decision` follows; final=True: the turn ended on it."""

    kind: ClassVar[str] = "turn_error"
    error_type: str
    message: str
    status: int | None
    code: str | None
    provider_type: str | None
    retry_after: float | None
    final: bool

    @classmethod
    def of(cls, error: ModelError, final: bool) -> TurnFailed:
        return cls(**error.to_dict(), final=final)


@dataclass(frozen=True, kw_only=True)
class DecisionAsked(ChatEvent):
    """The retries ran out (or the loop guard stopped the loop: error_type None, reason "loop"); `options`
    is a subset of retry, alternative, skip, cancel; settings=True: the fix is in Settings."""

    kind: ClassVar[str] = "decision"
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"reason"})
    error_type: str | None
    reason: str | None = None
    message: str
    advice: str
    options: list[str]
    settings: bool


@dataclass(frozen=True, kw_only=True)
class DecisionMade(ChatEvent):
    kind: ClassVar[str] = "decision_made"
    choice: str


@dataclass(frozen=True, kw_only=True)
class DialectSwitched(ChatEvent):
    kind: ClassVar[str] = "dialect"
    dialect: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class LoopStopped(ChatEvent):
    """Why the engine ended the loop early: max_rounds, loop, repeated_reply or length."""

    kind: ClassVar[str] = "stopped"
    reason: str
    message: str


@dataclass(frozen=True, kw_only=True)
class Notice(ChatEvent):
    """Something the user should know that is not an error (a chat that could not be saved)."""

    kind: ClassVar[str] = "notice"
    level: str
    message: str


# --- context, plan and memory -----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ContextMeter(ChatEvent):
    """Tokens of the request (estimate before sending, provider usage after), the window and the budget;
    after a compaction, how many results became stubs and how many messages the summary covers; the tokens
    of the AGENTS.md layer (`instructions`) and of the skills' listing (`skills`) when there are some."""

    kind: ClassVar[str] = "context"
    OMIT_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"stubbed", "summarized", "instructions", "skills"})
    used: int
    window: int
    limit: int
    source: str
    stubbed: int | None = None
    summarized: int | None = None
    instructions: int | None = None
    skills: int | None = None


@dataclass(frozen=True, kw_only=True)
class SummaryMade(ChatEvent):
    kind: ClassVar[str] = "summary"
    covered: int
    source: str
    text: str


@dataclass(frozen=True, kw_only=True)
class PlanChanged(ChatEvent):
    """The task checklist: `steps` is [{text, done}]."""

    kind: ClassVar[str] = "plan"
    turn: str
    steps: list[dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class MemoryAdded(ChatEvent):
    """A long-term memory stored from what the user said: {id, text, pinned, source, created, updated}."""

    kind: ClassVar[str] = "memory"
    action: str = "added"
    memory: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class StageChanged(ChatEvent):
    """The chat's stage changed (a staged write, a keep, a drop): `pending` files differ from the
    workspace; `turn` is the stage's last turn (None once nothing is pending). See agentlite.stage."""

    kind: ClassVar[str] = "stage_changed"
    pending: int
    turn: str | None


ENGINE_EVENTS: tuple[type[ChatEvent], ...] = (
    TurnStarted, StateChanged, TurnEnded, TitleChanged, MessageStarted, MessageEnded, ToolStatus,
    ApprovalAsked, RetryScheduled, TurnFailed, DecisionAsked, DecisionMade, DialectSwitched, LoopStopped,
    Notice, ContextMeter, SummaryMade, PlanChanged, MemoryAdded, StageChanged,
)  # fmt: skip
STREAM_EVENTS: tuple[type[Event], ...] = (
    TextDelta, ThinkingDelta, ToolCallStarted, ToolArgPreview, ToolCallReady, ToolCallInvalid, ProtocolNote,
    Usage, Finish,
)  # fmt: skip
WireEvent = ChatEvent | Event
Emit = Callable[[WireEvent], None]  # how engine code sends an event
Post = Callable[[dict[str, Any]], None]  # where a chat's wire events go (the page)

WIRE_EVENTS: tuple[type[ChatEvent] | type[Event], ...] = (*ENGINE_EVENTS, *STREAM_EVENTS)
WIRE_FIELDS: dict[str, tuple[str, ...]] = {
    cls.kind: tuple(f.name for f in fields(cls)) for cls in WIRE_EVENTS
}
ENGINE_KINDS = frozenset(cls.kind for cls in ENGINE_EVENTS)
STREAM_KINDS = frozenset(cls.kind for cls in STREAM_EVENTS)
KINDS = ENGINE_KINDS | STREAM_KINDS


def event_dict(event: WireEvent) -> dict[str, Any]:
    """The one wire form of an event: `{"kind": ..., <fields>}`, omitting the unset optional fields."""
    omit = event.OMIT_WHEN_NONE if isinstance(event, ChatEvent) else frozenset()
    body = {k: v for k, v in asdict(event).items() if not (v is None and k in omit)}
    return {"kind": event.kind, **body}
