"""The parts of a turn around the loop: its context layers, history records, bubbles, meter and asks.

`Turn` (engine.turn) holds the loop; this base class holds what the loop leans on, so each file stays
readable: building the turn's user message (layers 2 and 3), compaction with summaries, recording replies
and results into the history, the assistant bubble, the context meter, the plan, and the user decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentlite.engine import prompt
from agentlite.engine.chat_events import (
    ContextMeter,
    DecisionAsked,
    DecisionMade,
    DialectSwitched,
    LoopStopped,
    MemoryAdded,
    MessageEnded,
    MessageStarted,
    PlanChanged,
    SummaryMade,
    TurnFailed,
    TurnStarted,
)
from agentlite.engine.context import Budget, facts_from_summary, fallback_summary, fit, summary_request
from agentlite.engine.dispatch import Call, Dispatcher
from agentlite.engine.history import Message, keep_last, new_id
from agentlite.engine.loopguard import LoopGuard
from agentlite.engine.memory import extract
from agentlite.engine.plan import Plan, is_complex
from agentlite.engine.reply import Reply, drain_text
from agentlite.engine.shrink import squeeze
from agentlite.engine.state import ChatState as S
from agentlite.engine.strategy import ADVICE, MATRIX, decision_options
from agentlite.errors import ModelError
from agentlite.settings import Settings
from agentlite.transport import ModelRequest, ModelTransport

if TYPE_CHECKING:
    from agentlite.engine.session import ChatSession

OUTLINE = prompt.OUTLINE_ENTRIES
MENTION = re.compile(r"(?<!\S)@(/?[\w.-]+(?:/[\w.-]+)*\.\w+|/[\w./-]+\w)")
FINAL = "final"
GO_ON_ADVICE = "Retry lets the agent go on (the repeated call may run again); Cancel ends the turn."


@dataclass
class TurnOptions:
    """What the page sends with a message (all optional)."""

    mode: str | None = None  # agent | chat (also switches the chat)
    tool: str | None = None  # the tool the user picked: forced for this turn
    references: list[Any] = field(default_factory=list)  # `@path` attachments: paths or {path, content}
    open_file: str | None = None
    selection: str | None = None


class TurnSetup:
    def __init__(
        self,
        chat: ChatSession,
        text: str,
        settings: Settings,
        transport: ModelTransport,
        options: TurnOptions,
        again: Message | None = None,
    ) -> None:
        self.chat, self.engine, self.sm, self.emit = chat, chat.engine, chat.sm, chat.emit
        self.counter = chat.counter
        self.text, self.settings, self.transport, self.options = text, settings, transport, options
        self.turn_id = chat.next_turn_id()
        self.mode = chat.settings.mode
        self.dialect = self.engine.dialects.resolve(settings.dialect, settings.base_url, settings.model)
        self.system = prompt.system_prompt(self.mode)
        self.guard = LoopGuard()
        self.max_rounds = chat.settings.max_rounds
        self.round = 0
        self.keep: int | None = None
        self.no_tools = False
        self.invalid_rounds = 0
        known = options.tool and self.engine.registry.get(options.tool)
        self.forced: str | None = known.name if known and self.mode == "agent" else None
        self.plan_requested = False
        self.plan: Plan | None = None
        self.reply: Reply | None = None
        self.dispatcher: Dispatcher | None = None
        self.bubble: str | None = None
        self.user_message: Message | None = None  # this turn's: every truncated request keeps it
        self.again = again  # a user message already in the history, answered again (regenerate)
        stated = self.engine.windows.get((settings.base_url, settings.model))
        size = min(chat.settings.context_window, stated or chat.settings.context_window)
        self.budget = Budget(self.counter, size, chat.settings.reserve)
        self.context = self.engine.tool_context(self.turn_id, options.open_file, chat.save_model_summary)

    # --- planning: the turn's user message ----------------------------------------------------------

    async def prepare(self) -> None:
        layers = await self._layers()
        if self.again is not None:  # regenerate: the message keeps the context it was first sent with
            user = self.user_message = self.again
        else:
            self.chat.memo.pin(layers.references)
            user = self.user_message = Message("user", self.text, turn=self.turn_id, context=layers.render())
            self.chat.add(user)
        self.emit(
            TurnStarted(
                turn=self.turn_id,
                id=user.id,
                text=self.text,
                mode=self.mode,
                dialect=self.dialect,
                regenerate=self.again is not None,
            )
        )
        await self._remember()
        await self.compact()

    async def _layers(self) -> prompt.TurnContext:
        ws, options = self.engine.workspace, self.options
        layers = prompt.TurnContext(open_file=options.open_file, selection=options.selection)
        if ws is not None:
            if options.open_file:
                layers.open_text = await _read(ws, options.open_file)
            files = [e["path"] for e in await ws.list("/", recursive=True) if e.get("kind") == "file"]
            layers.outline, layers.outline_total = files[:OUTLINE], len(files)
        layers.references = await self._references()
        if self.engine.memory is not None:
            layers.memories = [m.text for m in await self.engine.memory.relevant(self.text)]
        if self.forced and self.dialect != "native":
            layers.instructions.append(prompt.forced_tool_instruction(self.forced))
        if self.mode == "agent" and is_complex(self.text):
            self.plan_requested = True
            layers.instructions.append(prompt.PLAN_INSTRUCTION)
        return layers

    async def _references(self) -> list[prompt.Reference]:
        """Files attached by the page, and `@path` mentions in the message that name existing files."""
        found: list[prompt.Reference] = []
        mentioned = [m if m.startswith("/") else "/" + m for m in MENTION.findall(self.text)]
        for item in [*self.options.references, *mentioned]:
            if isinstance(item, dict) and isinstance(item.get("content"), str):
                found.append(prompt.Reference(str(item.get("path") or "attachment"), item["content"]))
            elif isinstance(item, str | dict) and self.engine.workspace is not None:
                path = item if isinstance(item, str) else str(item.get("path") or "")
                text = await _read(self.engine.workspace, path)
                if text is not None and path not in {r.path for r in found}:
                    found.append(prompt.Reference(path, text))
        return found

    async def _remember(self) -> None:
        found = extract(self.text)
        if found is None or self.engine.memory is None:
            return
        memory = await self.engine.memory.add(found[0], pinned=found[1], source=f"chat:{self.chat.id}")
        self.emit(MemoryAdded(memory=memory.view()))

    # --- compaction ----------------------------------------------------------------------------------

    async def compact(self, hard: bool = False) -> None:
        memo, messages = self.chat.memo, self.chat.messages
        if hard:
            cut = keep_last(messages, 5)
            if cut > memo.summarized_upto:
                memo.summary = await self._summarize(memo.summary, messages[memo.summarized_upto : cut])
                memo.summarized_upto = memo.summary_covers = cut
        report = await fit(messages, memo, self.system, self.budget, self._summarize)
        if not (report.stubbed or report.summarized) and self.request_size() > self.budget.limit:
            # a history too short for `fit` to cut, in a small window (tool definitions count too)
            limit, current = self.budget.limit, self.user_message
            squeezed = await squeeze(messages, memo, current, self.request_size, limit, self._summarize)
            report.stubbed += squeezed
            report.used = self.request_size()
        if report.stubbed or report.summarized or hard:
            self.emit(
                ContextMeter(
                    used=report.used,
                    window=self.budget.window,
                    limit=self.budget.limit,
                    source="estimate",
                    stubbed=report.stubbed,
                    summarized=memo.summarized_upto,
                )
            )

    def request_size(self) -> int:
        """Our count of the next request's tokens, tool definitions included (the turn builds it)."""
        raise NotImplementedError

    async def _summarize(self, previous: str, messages: list[Message]) -> str:
        body = {"model": self.settings.model, "stream": True, "messages": summary_request(previous, messages)}
        url = (
            f"{self.settings.base_url}/chat/completions"
            if self.settings.base_url
            else "demo:/chat/completions"
        )
        try:
            text = (
                await drain_text(self.transport, ModelRequest("POST", url, self.settings.headers(), body))
            ).strip()
        except ModelError:
            text = ""
        source = "model" if text else "fallback"
        text = text or fallback_summary(previous, messages)
        if self.engine.memory is not None and source == "model":
            for fact in facts_from_summary(text):
                await self.engine.memory.add(fact, source="summary")
        self.emit(SummaryMade(covered=len(messages), source=source, text=text))
        return text

    # --- the round's records ------------------------------------------------------------------------

    def tool_defs(self) -> list[dict[str, Any]]:
        if self.mode == "chat" or self.no_tools:
            return []
        return self.engine.registry.definitions()

    def new_dispatcher(self) -> Dispatcher:
        return Dispatcher(
            self.engine.registry,
            self.context,
            locks=self.engine.locks,
            desk=self.chat.desk,
            guard=self.guard,
            emit=self.emit,
            exists=self.engine.exists,
            auto_approve=self.chat.settings.approved(),
            batch=f"{self.turn_id}-r{self.round + 1}",
            clock=self.engine.clock,
        )

    def record_reply(self, reply: Reply, state: str, calls: list[Call]) -> None:
        """The assistant message and its tool results, once per reply, in the order they were written."""
        if reply.recorded:
            return
        reply.recorded = True
        done = [c for c in calls if c.result is not None]
        if not reply.received and not done:
            return
        tool_calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in done]
        self.chat.add(
            Message(
                "assistant",
                reply.content,
                turn=self.turn_id,
                state=state,
                thinking="".join(reply.thinking),
                tool_calls=tool_calls,
            )
        )
        for call in done:
            assert call.result is not None
            shown = {k: v for k, v in call.result.to_dict().items() if k != "data"}
            self.chat.add(
                Message(
                    "tool",
                    call.for_model(),
                    turn=self.turn_id,
                    tool_call_id=call.id,
                    name=call.name,
                    ok=call.result.ok,
                    status=call.status,
                    result=shown,
                )
            )

    def note(self, text: str) -> None:
        """A message for the model only (continue, correct, nudge); never shown as a bubble."""
        self.chat.add(Message("user", text, turn=self.turn_id, hidden=True))

    def open_bubble(self) -> None:
        if self.bubble is None:
            self.bubble = new_id("a")
            self.emit(
                MessageStarted(id=self.bubble, role="assistant", turn=self.turn_id, round=self.round + 1)
            )

    def close_bubble(self, state: str) -> None:
        if self.bubble is not None:
            self.emit(MessageEnded(id=self.bubble, state=state))
            self.bubble = None

    # --- meter, dialect, plan, stops, decisions ------------------------------------------------------

    def meter(self, used: int, source: str) -> None:
        self.emit(ContextMeter(used=used, window=self.budget.window, limit=self.budget.limit, source=source))

    def measured(self, estimate: int, reply: Reply) -> None:
        usage = reply.usage
        if usage is not None and usage.prompt_tokens:
            self.counter.calibrate(estimate, usage.prompt_tokens)
            self.meter(usage.prompt_tokens + (usage.completion_tokens or 0), "provider")

    def switch_dialect(self, dialect: str, reason: str) -> None:
        self.dialect = dialect
        if self.settings.dialect == "auto":
            self.engine.dialects.learn(self.settings.base_url, self.settings.model, dialect)
        self.emit(DialectSwitched(dialect=dialect, reason=reason))

    def track_plan(self, reply: Reply, calls: list[Call]) -> None:
        changed = False
        if self.plan_requested and self.plan is None:
            self.plan = Plan.from_reply(reply.content)
            changed = self.plan is not None
        for call in calls:
            if self.plan is not None and call.status == "completed":
                changed = self.plan.tick_tool(call.name, call.arguments) or changed
        if changed:
            self.emit_plan()

    def emit_plan(self) -> None:
        self.chat.plan = self.plan
        if self.plan is not None:
            self.emit(PlanChanged(turn=self.turn_id, **self.plan.to_dict()))

    def stopped(self, reason: str, message: str) -> str:
        self.emit(LoopStopped(reason=reason, message=message))
        return FINAL

    async def ask(self, error: ModelError) -> str:
        """ERROR state: show the failure and wait for the user's choice."""
        self.close_bubble("error")
        self.sm.transition(S.ERROR)
        strategy, options = MATRIX[error.type], decision_options(error.type)
        self.emit(TurnFailed.of(error, final=False))
        self.emit(
            DecisionAsked(
                error_type=error.type.value,
                message=error.message,
                advice=ADVICE[error.type],
                options=options,
                settings=strategy.ask_settings,
            )
        )
        choice = await self.chat.decisions.wait(options)
        self.emit(DecisionMade(choice=choice))
        self.adopt_endpoint()
        return choice

    async def ask_to_go_on(self, reason: str, message: str) -> str:
        """DECIDING: the engine stopped the loop (`reason`); the user chooses to go on (retry) or cancel.
        A new message dismisses the question (skip: the turn ends as it is)."""
        options = ["retry", "cancel"]
        self.emit(
            DecisionAsked(
                error_type=None,
                reason=reason,
                message=message,
                advice=GO_ON_ADVICE,
                options=options,
                settings=False,
            )
        )
        choice = await self.chat.decisions.wait(options)
        self.emit(DecisionMade(choice=choice))
        return choice

    def adopt_endpoint(self) -> None:
        """Take the endpoint settings saved while the user decided (the key asked for by an auth error)."""
        latest = self.engine.endpoint
        if latest is None or latest[0] == self.settings:
            return
        old, (self.settings, self.transport) = self.settings, latest
        new = self.settings
        if (old.base_url, old.model, old.dialect) != (new.base_url, new.model, new.dialect):
            self.dialect = self.engine.dialects.resolve(new.dialect, new.base_url, new.model)


async def _read(workspace: Any, path: str) -> str | None:
    try:
        return await workspace.read_text(path)
    except Exception:  # a folder, a bad path: the layer just leaves it out
        return None
