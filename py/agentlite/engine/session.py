"""One chat tab: its state machine, history, settings and the running turn; the page's handle on it.

The surface the chats' room uses (`agentlite.rooms.chat_room`): `start_turn(text, link, options)`
(typed: `TurnOptions`, `ModelLink`), `stop()`, `busy`,
`approve(call_id, approved, batch=False)`, `decide(choice)`, `configure(**settings)`, `snapshot()`,
`switch_branch(message_id, index)`. `messages` is the active path of the chat's message tree
(`engine.branches`): a turn whose options carry `edit=<user message id>` or `regenerate=True` branches
it. The limits the page's settings set for every chat (`PageLimits`) live in `settings`: the engine
hands them over when they change, never with each message.
Everything it shows goes out through `emit` (`engine.chat_events`, one wire form). Two chats may
run at once; they share the workspace through the engine's resource locks.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from agentlite.engine.approvals import ApprovalDesk, auto_approved
from agentlite.engine.branches import MessageTree, shown
from agentlite.engine.budget import DEFAULT_WINDOW, Memo
from agentlite.engine.chat_events import (
    Post,
    StateChanged,
    TitleChanged,
    TurnEnded,
    WireEvent,
    event_dict,
)
from agentlite.engine.decisions import DecisionBox
from agentlite.engine.history import Message
from agentlite.engine.model_link import ModelLink
from agentlite.engine.state import ChatState, StateMachine
from agentlite.engine.task_plan import Plan
from agentlite.engine.tokens import TokenCounter
from agentlite.engine.turn import Turn
from agentlite.engine.turn_deps import MODES, ChatLimits, SharedDeps, TurnDeps, TurnOptions
from agentlite.engine.turn_tools import TurnTools
from agentlite.limits import MAX_ROUNDS

log = logging.getLogger(__name__)
SaveChat = Callable[["ChatSession"], Awaitable[None]]

# The native-deltas note stops at 5 rounds; the client-tools note's third scenario (list → read → write →
# answer) needs 4 requests, and a failed edit or a format correction needs one more each, so a turn may use
# 8 tool rounds.
DEFAULT_MAX_ROUNDS = MAX_ROUNDS.default
TITLE_CHARS = 40


@dataclass
class ChatSettings:
    """Per-chat settings, persisted with the chat."""

    mode: str = "agent"
    max_rounds: int = DEFAULT_MAX_ROUNDS
    auto_approve: list[str] = field(default_factory=list)  # Ask values, or ["all"]
    context_window: int = DEFAULT_WINDOW  # the model's window (from its metadata when the page knows it)
    reserve: int = 0  # tokens kept for the answer; 0: a quarter of the window, at most 8,192

    def approved(self) -> set[str]:
        return auto_approved(self.auto_approve)

    def adopt(self, limits: PageLimits) -> None:
        """The limits the page's settings set for every chat (those it set: None keeps the chat's)."""
        if limits.max_rounds is not None:
            self.max_rounds = max(1, limits.max_rounds)
        if limits.auto_approve is not None:
            kinds = limits.auto_approve
            self.auto_approve = sorted(auto_approved("all" if "all" in kinds else list(kinds)))

    def update(self, values: dict[str, Any]) -> None:
        for item in fields(self):
            if values.get(item.name) is not None:
                setattr(self, item.name, _coerce(item.name, values[item.name]))


@dataclass(frozen=True)
class PageLimits:
    """What the page's settings set for every chat's turns: tool rounds and auto-approval."""

    max_rounds: int | None = None
    auto_approve: tuple[str, ...] | None = None  # Ask values, or ("all",)
    changes: str = "apply"  # how an agent turn's changes land: "review" (on the chat's stage) or "apply"


def _coerce(name: str, value: Any) -> Any:
    if name == "mode":
        return value if value in MODES else "agent"
    if name in ("max_rounds", "context_window", "reserve"):
        return max(1 if name == "max_rounds" else 0, int(value))
    if name == "auto_approve":
        return sorted(auto_approved(value))
    return value


class ChatSession:
    def __init__(self, shared: SharedDeps, chat_id: str, emit: Post, save: SaveChat) -> None:
        self.shared = shared  # what the engine's chats share: handed on to each turn
        self._save = save  # the engine keeps the chat store (one save at a time per chat)
        self.id = chat_id
        self._emit = emit
        self.title = ""
        self.tree = MessageTree()
        self.messages: list[Message] = []  # the tree's active path
        self.memo = Memo()
        self.plan: Plan | None = None
        self.settings = ChatSettings()
        self.turns = 0
        self.stamp = secrets.token_hex(2)  # keeps turn ids unique when a chat id is used again
        self.created = self.updated = time.time()
        self.sm = StateMachine(self._state_changed)
        self.desk = ApprovalDesk()
        self.decisions = DecisionBox()
        self.counter = TokenCounter()
        self.task: asyncio.Task[None] | None = None  # the newest turn (queued behind the others)
        self.tasks: list[asyncio.Task[None]] = []  # every turn not finished yet, oldest first
        self.turn: Turn | None = None
        self.running: asyncio.Task[Any] | None = None  # the task of `turn`
        self.closed = False  # the tab was closed: nothing more is shown or saved
        self.saving = asyncio.Lock()  # one save at a time, and a close waits for the save under way

    # --- the page's surface -------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def in_turn(self) -> bool:
        """A turn has begun (not only queued) and has not ended."""
        return self.running is not None and not self.running.done()

    @property
    def state(self) -> ChatState:
        return self.sm.state

    def start_turn(self, text: str, link: ModelLink, options: TurnOptions | None = None) -> None:
        """Run a turn on `link`; behind a running one (a pending decision is skipped so the new message
        goes on). The link's window, when the page knows one, becomes the chat's."""
        options = options or TurnOptions()
        if options.mode in MODES:
            self.settings.mode = options.mode
        if link.window:
            self.settings.context_window = link.window
        previous = self.task
        self.decisions.dismiss()

        async def run() -> None:
            try:
                if previous is not None and not previous.done():
                    await asyncio.wait([previous])
                await self.shared.restored()  # the chat's saved history first, when the page is loading it
            except asyncio.CancelledError:  # stopped while queued: it never started
                self.emit(TurnEnded(turn=None, state="cancelled", rounds=0))
                return
            again = self._branch(options.edit, options.regenerate)
            if options.regenerate and again is None:  # no message of the user to answer again
                self.emit(TurnEnded(turn=None, state="cancelled", rounds=0))
                return
            said = again.content if again is not None else text
            self.turn = self.new_turn(said, link, options, again=again)
            self.running = asyncio.current_task()
            await self.turn.run()

        self.task = task = asyncio.ensure_future(run())
        self.tasks.append(task)
        task.add_done_callback(self.tasks.remove)

    def _branch(self, edit: str | None, regenerate: bool) -> Message | None:
        """Cut the active path back for an edited message (it gets a new sibling) or a regenerated
        answer (the last user message gets a new answer); the message to answer again, if any."""
        ids = [m.id for m in self.messages]
        if regenerate:
            users = [i for i, m in enumerate(self.messages) if m.role == "user" and not m.hidden]
            if not users:
                return None
            self._cut(users[-1] + 1)
            return self.messages[-1]
        if edit is not None and edit in ids:
            self._cut(ids.index(edit))
        return None

    def _cut(self, keep: int) -> None:
        """The active path ends after `keep` messages; the next message starts a new branch there.
        A summary that reached past the cut described messages the new branch does not have."""
        self.messages = self.messages[:keep]
        if max(self.memo.summarized_upto, self.memo.summary_covers) > keep:
            self.memo = Memo(pinned=list(self.memo.pinned))

    async def switch_branch(self, message_id: str, index: int) -> dict[str, Any]:
        """Show another version of a message (0-based among its siblings); the chat's new snapshot."""
        if self.busy:
            raise ValueError("the chat is busy: wait for the turn to end before switching branches")
        if message_id not in self.tree.nodes:
            raise ValueError(f"no message {message_id!r} in this chat")
        self.messages = self.tree.switch(message_id, index)
        self.memo = Memo(pinned=list(self.memo.pinned))  # the summary described the other branch
        await self._save(self)
        return self.snapshot()

    def stop(self) -> None:
        """Stop the running turn (and any queued behind it) at whatever it is doing; the partial answer
        is kept, marked interrupted."""
        for task in list(self.tasks):
            if task is self.running and self.turn is not None and self.turn.winding_down:
                continue  # already stopping: let it finish keeping what it has
            task.cancel()

    def close(self) -> None:
        """The tab was closed: stop the turn; its wind-down is neither shown nor saved (a save after the
        chat's deletion would bring the tab back on the next reload)."""
        self.closed = True
        self.stop()

    def approve(
        self, call_id: str, approved: bool = True, batch: bool = False, ask: str | None = None
    ) -> bool:
        """The user's answer to an approval request (`ask`: the kind of question the card showed); `batch`
        answers every call of that reply waiting with the same kind of question."""
        return self.desk.answer(call_id, approved, batch, ask or None)

    def decide(self, choice: str) -> bool:
        """The user's answer to a decision request: retry, alternative, skip or cancel."""
        return self.decisions.answer(choice)

    def configure(self, **values: Any) -> dict[str, Any]:
        """Change settings (unknown or None values are ignored; the rest is checked); returns them all."""
        self.settings.update(values)
        return asdict(self.settings)

    async def apply_settings(self, **values: Any) -> dict[str, Any]:
        """`configure`, then persist the chat (the page's settings panel of a tab); after the saved
        chats are loaded, so neither the loaded settings undo these nor this save empties a saved chat."""
        await self.shared.restored()
        applied = self.configure(**values)
        await self._save(self)
        return applied

    def snapshot(self) -> dict[str, Any]:
        """What the page needs to show this chat again (after a reload, or when the tab opens)."""
        return {
            "id": self.id,
            "title": self.title,
            "state": self.sm.state.value,
            "settings": asdict(self.settings),
            "messages": self.views(),
            "plan": self.plan.to_dict() if self.plan else None,
            "summary": self.memo.summary,
            "pinned": [r.path for r in self.memo.pinned],
        }

    def views(self) -> list[dict[str, Any]]:
        """The shown messages of the active path (tool results too: they fill their call's card), each
        starting a version with its place among them (`branch`, `branches`, `node`)."""
        info = self.tree.branch_info(self.messages)
        views = []
        for message in self.messages:
            if shown(message) or message.role == "tool":
                views.append({**message.view(), **info.get(message.id, {})})
        return views

    # --- what turns use -----------------------------------------------------------------------------

    def emit(self, event: WireEvent) -> None:
        if self.closed:
            return
        try:
            self._emit(event_dict(event))
        except Exception:  # the page going away must not break the turn
            log.exception("emit failed")

    def add(self, message: Message) -> None:
        self.tree.add(message, self.messages[-1] if self.messages else None)
        self.messages.append(message)
        self.updated = time.time()
        if not self.title and message.role == "user" and not message.hidden:
            text = " ".join(message.content.split())
            self.title = text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"
            self.emit(TitleChanged(title=self.title))

    def next_turn_id(self) -> str:
        self.turns += 1
        return f"{self.id}-{self.stamp}-t{self.turns}"

    def save_model_summary(self, summary: Any) -> None:
        """The `conversation_summary` hook: the model's summary covers everything so far."""
        self.memo.summary = str(getattr(summary, "text", summary))
        self.memo.summary_covers = len(self.messages)

    def new_turn(
        self,
        text: str,
        link: ModelLink,
        options: TurnOptions,
        again: Message | None = None,
    ) -> Turn:
        """A turn on this chat (not started): it gets the chat's parts in one bundle, never the chat."""
        config = self.settings
        limits = ChatLimits(
            config.mode, config.max_rounds, config.context_window, config.reserve, config.approved
        )
        deps = TurnDeps(
            shared=self.shared,
            turn_id=self.next_turn_id(),
            chat_id=self.id,
            limits=limits,
            emit=self.emit,
            sm=self.sm,
            counter=self.counter,
            desk=self.desk,
            decisions=self.decisions,
            messages=self.messages,
            memo=self.memo,
            add=self.add,
            set_plan=self._set_plan,
            save=lambda: self._save(self),
            ended=self._turn_ended,
            save_summary=self.save_model_summary,
            tools=TurnTools(self.shared.registry, self.shared.fit_remote, self.shared.reread_remote),
        )
        return Turn(deps, text, link, options, again=again)

    def _set_plan(self, plan: Plan | None) -> None:
        self.plan = plan

    async def _turn_ended(self, turn_id: str, outcome: str, rounds: int) -> None:
        self.sm.end_turn()
        self.emit(TurnEnded(turn=turn_id, state=outcome, rounds=rounds))
        await self._save(self)

    def _state_changed(self, state: ChatState, previous: ChatState, detail: dict[str, Any]) -> None:
        self.emit(StateChanged(state=state.value, previous=previous.value, **detail))

    # --- persistence --------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "settings": asdict(self.settings),
            **self.tree.to_record(),
            "memo": self.memo.to_dict(),
            "plan": self.plan.to_dict() if self.plan else None,
            "turns": self.turns,
            "stamp": self.stamp,
            "created": self.created,
            "updated": self.updated,
        }

    def load_record(self, record: dict[str, Any]) -> None:
        self.title = str(record.get("title") or "")
        self.settings.update(record.get("settings") or {})
        self.tree = MessageTree.from_record(record)
        self.messages = self.tree.path()
        self.memo = Memo.from_dict(record.get("memo"))
        self.plan = Plan.from_dict(record.get("plan"))
        self.turns = int(record.get("turns") or 0)
        self.stamp = str(record.get("stamp") or self.stamp)
        self.created = float(record.get("created") or self.created)
        self.updated = float(record.get("updated") or self.updated)
