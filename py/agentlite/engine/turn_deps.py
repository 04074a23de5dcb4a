"""What a turn works with, handed over once: the engine's shared parts and the chat's.

A turn never holds the chat session or the engine. What it may change in the chat goes through the
narrow parts named here: `add` a message, the chat's `memo` and `messages` (the same objects the chat
keeps, never replaced while a turn runs), `set_plan`, `save`; what it learns for every chat (a stated
window, how a server counts, a dialect) goes into `server_counts` and `dialects`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentlite.engine.approvals import ApprovalDesk, Exists, Peek
from agentlite.engine.budget import Memo
from agentlite.engine.chat_events import Emit
from agentlite.engine.decisions import DecisionBox
from agentlite.engine.dialect import DialectChooser
from agentlite.engine.dispatch import Dispatcher
from agentlite.engine.history import Message
from agentlite.engine.locks import ResourceLocks
from agentlite.engine.loopguard import LoopGuard
from agentlite.engine.memory import MemoryStore
from agentlite.engine.model_link import ModelLink
from agentlite.engine.server_counts import ServerCounts
from agentlite.engine.state import StateMachine
from agentlite.engine.strategy import Backoff
from agentlite.engine.task_plan import Plan
from agentlite.engine.tokens import TokenCounter
from agentlite.engine.turn_tools import TurnTools
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import ToolRegistry
from agentlite.workspace import Workspace

MODES = ("agent", "chat", "plan")  # plan: read and plan only (engine.plan_mode)
# On a stage nothing is real until the user keeps it: the review asks about files, not the turn.
STAGED_KINDS = frozenset({"delete", "overwrite", "instructions", "batch"})


def staged_approvals(context: Any) -> frozenset[str]:
    return STAGED_KINDS if getattr(context, "stage", None) else frozenset()


async def nothing_to_read() -> None:
    """No remote servers: no tool list to read again before a round."""


SaveSummary = Callable[[Any], None]
ToolContextFactory = Callable[[str, str | None, SaveSummary], ToolContext]


@dataclass(frozen=True)
class Attachment:
    """A file attached to a message: its path, and its content when the page read it (else it is read)."""

    path: str
    content: str | None = None


@dataclass(frozen=True)
class TurnOptions:
    """What the page sends with a message, checked (`agentlite.commands.SendMessage`); all optional."""

    mode: str | None = None  # one of MODES (also switches the chat)
    tool: str | None = None  # the tool the user picked: forced for this turn
    references: tuple[Attachment, ...] = ()  # files attached to the message
    open_file: str | None = None  # the editor's file
    selection: str | None = None  # the editor's selection, as the prompt shows it
    edit: str | None = None  # the id of the user message this one replaces (a new branch)
    regenerate: bool = False  # answer the last user message again
    # images and PDFs attached, checked (`user_attachments`), and a line for each one left out
    attachments: tuple[dict[str, str | int | bool], ...] = ()
    attachment_notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SharedDeps:
    """What every chat of one engine shares (the engine builds it once)."""

    registry: ToolRegistry
    workspace: Workspace | None  # a Workspace, or None (tests, the demo without files)
    memory: MemoryStore | None
    dialects: DialectChooser  # the `auto` dialect each endpoint was found to speak
    server_counts: ServerCounts  # what context refusals stated, per endpoint + model
    locks: ResourceLocks
    exists: Exists | Peek  # what the approval rules may look at in the workspace
    tool_context: ToolContextFactory  # (turn id, open file, save summary) -> what tools receive
    endpoint: Callable[[], ModelLink | None]  # the link the page set last (a key entered mid-turn)
    sleep: Callable[[float], Awaitable[Any]]
    backoff: Backoff
    clock: Callable[[], float]
    # the remote tools and servers the user allowed for every chat ("always allow"), read each round
    allowed: Callable[[], set[str]] = set
    # fits the remote servers' tools to a request's context window (mcp.servers), before it is built
    fit_remote: Callable[[int], None] = lambda _window: None
    # reads the tool lists the remote servers said changed, before a round takes its tools (turn_tools)
    reread_remote: Callable[[], Awaitable[None]] = nothing_to_read
    # (chat id, mode, context) -> the context on the chat's stage when its changes land for review
    on_stage: Callable[[str, str, Any], Any] = lambda _chat, _mode, context: context
    # returns once the saved chats are loaded: a turn sent while they load starts on its chat's history
    restored: Callable[[], Awaitable[None]] = nothing_to_read


@dataclass(frozen=True)
class ChatLimits:
    """The chat's settings as the turn starts (auto-approval is read again each round)."""

    mode: str
    max_rounds: int
    window: int
    reserve: int
    approved: Callable[[], set[str]]


@dataclass(frozen=True)
class TurnDeps:
    """The one bundle a `Turn` receives: the engine's shared parts and the narrow parts of its chat."""

    shared: SharedDeps
    turn_id: str
    chat_id: str
    limits: ChatLimits
    emit: Emit
    sm: StateMachine
    counter: TokenCounter
    desk: ApprovalDesk
    decisions: DecisionBox
    messages: list[Message]  # the chat's active path
    memo: Memo
    add: Callable[[Message], None]
    set_plan: Callable[[Plan | None], None]
    save: Callable[[], Awaitable[None]]
    ended: Callable[[str, str, int], Awaitable[None]]  # (turn id, outcome, rounds)
    save_summary: SaveSummary
    tools: TurnTools  # the tools of the round in flight: a snapshot taken as it began

    def tool_context(self, mode: str, open_file: str | None) -> ToolContext:
        """What the turn's tools receive: on the chat's stage when its changes land for review."""
        context = self.shared.tool_context(self.turn_id, open_file, self.save_summary)
        return self.shared.on_stage(self.chat_id, mode, context)  # type: ignore[no-any-return]

    def dispatcher(self, context: ToolContext, guard: LoopGuard, batch: str) -> Dispatcher:
        """The dispatcher of one round's calls (auto-approval as the chat's settings say now)."""
        shared = self.shared
        return Dispatcher(
            self.tools.registry,
            context,
            locks=shared.locks,
            desk=self.desk,
            guard=guard,
            emit=self.emit,
            exists=shared.exists,
            auto_approve=self.limits.approved() | shared.allowed() | staged_approvals(context),
            batch=batch,
            clock=shared.clock,
        )
