"""One agent turn: the tool loop from a user message to the final answer (origins: native-deltas, engine
§7, §10). It holds only the loop; what it works with comes in one `TurnDeps` bundle, and it leans on
`NextRequest`, `TurnDialect`, `TurnRecorder`, `Compactor`, `Repairs`, `UserAsks`, `PlanTracker` and
`Dispatcher`.

Request → stream → run the ready tools → send the results → next request, until the model answers
without tools, the round limit is reached, or the loop guard stops it. Failures go through the strategy
matrix (`engine.strategy`); when the retries run out the user decides. A round's reply is one bubble (a
`length` continuation keeps writing into it). Nothing is lost on the way out: a stopped or failed turn
keeps its partial answer (marked interrupted) and every tool result, and the chat returns to idle.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from agentlite.engine import lean, prompt
from agentlite.engine.chat_events import (
    LoopStopped,
    Notice,
    TurnFailed,
    TurnStarted,
)
from agentlite.engine.compaction import Compactor
from agentlite.engine.dispatch import Call, Dispatcher
from agentlite.engine.history import Message, carries_images, drop_images
from agentlite.engine.loopguard import LoopGuard
from agentlite.engine.model_link import ModelLink
from agentlite.engine.plan_tracker import PlanTracker
from agentlite.engine.project_instructions import instructions_changed
from agentlite.engine.reply import Reply, stream_reply
from agentlite.engine.state import ChatState as S
from agentlite.engine.strategy import MATRIX, next_attempt
from agentlite.engine.task_plan import is_complex
from agentlite.engine.turn_asks import WITHOUT_IMAGES, UserAsks
from agentlite.engine.turn_deps import TurnDeps, TurnOptions
from agentlite.engine.turn_dialect import TurnDialect
from agentlite.engine.turn_message import open_message, remember
from agentlite.engine.turn_record import TurnRecorder
from agentlite.engine.turn_repair import Repairs
from agentlite.engine.turn_request import NextRequest, turn_budget
from agentlite.errors import ErrorType, ModelError
from agentlite.events import ToolCallReady
from agentlite.stream.decoder import StreamDecoder
from agentlite.tools.result import ToolErrorType, ToolResult

log = logging.getLogger(__name__)
NEXT, FINAL, INVALID, LOOP = "next", "final", "invalid", "loop"


class TurnCancelled(Exception):
    """The user chose cancel in a decision."""


class Turn:
    def __init__(
        self,
        deps: TurnDeps,
        text: str,
        link: ModelLink,
        options: TurnOptions,
        again: Message | None = None,
    ) -> None:
        self.deps, self.shared = deps, deps.shared
        self.emit, self.sm, self.counter, self.turn_id = deps.emit, deps.sm, deps.counter, deps.turn_id
        self.text, self.options = text, options
        self.again = again  # a user message already in the history, answered again (regenerate)
        self.mode, self.max_rounds = deps.limits.mode, deps.limits.max_rounds
        self.profile = profile = link.profile  # what differs for this kind of model (agentlite.profiles)
        self.system = (lean if profile.prompt == "lean" else prompt).system_prompt(self.mode)
        self.guard = LoopGuard(max_continuations=profile.continuations)
        self.round, self.invalid_rounds = 0, 0
        self.winding_down = False  # set once stopping: a second stop must not cut the clean-up short
        self.reply: Reply | None = None
        self.dispatcher: Dispatcher | None = None
        self.user_message: Message | None = None  # this turn's: every truncated request keeps it
        self.records = TurnRecorder(self.turn_id, deps.add, self.emit)
        self.link = TurnDialect(link, self.shared.dialects, self.emit, self.records.note)
        self.budget = turn_budget(deps.limits, self.shared.server_counts, link, self.counter)
        self.request = self._next_request(options.tool)
        self.compactor = self._compactor()
        self.repairs = Repairs(
            self.request, self.link, self.compactor, self.shared, self.emit, self.records.note, self._squeeze
        )
        context = self.shared.tool_context(self.turn_id, options.open_file, deps.save_summary)
        self.context = self.shared.on_stage(deps.chat_id, self.mode, context)
        self.planner = PlanTracker(self.turn_id, deps.set_plan, self.emit)
        self.asks = UserAsks(deps.decisions, self.emit)

    def _next_request(self, tool: str | None) -> NextRequest:
        history = (self.deps.messages, self.deps.memo)
        request = NextRequest(
            self.link,
            history,
            self.budget,
            system=self.system,
            tools=self._tools,
            counter=self.counter,
            emit=self.emit,
        )
        known = tool and self.shared.registry.get(tool)
        request.forced = known.name if known and self.mode == "agent" else None
        request.skills_listed = self.profile.skills_listed
        return request

    def _compactor(self) -> Compactor:
        deps, link = self.deps, self.link
        return Compactor(
            deps.messages,
            deps.memo,
            self.budget,
            self.system,
            request_size=self.request.size,
            endpoint=lambda: link.model_link,
            memory=self.shared.memory,
            emit=self.emit,
        )

    async def run(self) -> None:
        outcome = "completed"
        try:
            await self._run()
        except (asyncio.CancelledError, TurnCancelled):
            outcome, self.winding_down = "cancelled", True
            await self._wind_down("interrupted")
        except Exception as error:  # an engine bug: report it, keep the chat usable
            log.exception("turn %s failed", self.turn_id)
            outcome, self.winding_down = "error", True
            await self._wind_down("error")
            self._fail(ModelError(ErrorType.PROTOCOL, f"internal error: {type(error).__name__}: {error}"))
        finally:
            await self.deps.ended(self.turn_id, outcome, self.round)

    async def _run(self) -> None:
        self.sm.transition(S.PLANNING)
        await self._prepare()
        await self.deps.save()  # the user's message survives a closed page
        while True:
            reply = await self._attempt()
            if reply is None:
                break  # the user skipped the failed step
            action = self._decide(reply)
            if action == LOOP:
                action = await self._after_loop_stop()
            if action == FINAL:
                break
            if action == INVALID:
                error = ModelError(ErrorType.INVALID_FORMAT, "the model's tool calls could not be read twice")
                if not await self._settle(error):
                    break
            await self.request.warm()  # a long call or result is counted without holding the worker
            await self.compactor.compact(self.user_message)
            await self.deps.save()  # every finished round, not only the turn
        self._respond()

    async def _prepare(self) -> None:
        """PLANNING: the turn's user message with its context layers, a memory it asks for, a fit."""
        instructions, forced = [], self.request.forced
        if forced and self.link.dialect != "native":
            instructions.append(prompt.forced_tool_instruction(forced))
        if self.mode == "agent" and self.profile.plans and is_complex(self.text):
            self.planner.requested = True
            instructions.append(prompt.PLAN_INSTRUCTION)
        # regenerate: the message already in the history keeps the context it was first sent with
        again = self.again
        user = (
            again
            if again is not None
            else await open_message(self.deps, self.text, self.options, instructions, self.profile)
        )
        self.user_message = self.request.current = user
        turn, dialect, regenerate = self.turn_id, self.link.dialect, again is not None
        started = TurnStarted(
            turn=turn, id=user.id, text=self.text, mode=self.mode, dialect=dialect, regenerate=regenerate
        )
        self.emit(started)
        await remember(self.text, self.shared.memory, self.deps.chat_id, self.emit)
        await self.request.read_layers(self.shared.workspace)  # counted in the fit
        await self.request.warm()
        await self.compactor.compact(self.user_message)

    # --- one round, with the strategy matrix ------------------------------------------------------

    async def _attempt(self) -> Reply | None:
        failures: dict[ErrorType, int] = {}
        while True:
            self.sm.transition(S.REQUESTING, round=self.round + 1)
            error: ModelError | None
            try:
                reply = await self._exchange()
                error = reply.failure or (_empty() if reply.empty else None)
            except ModelError as failure:
                error = failure
            if error is None:
                return reply
            if self.link.fall_back_to_json(error, bool(self.request.tool_defs())):
                continue
            failures[error.type] = failures.get(error.type, 0) + 1
            attempt = next_attempt(error, failures[error.type], self.shared.backoff)
            if attempt is not None and await self.repairs.retry(error, attempt):
                continue
            failures.clear()
            if not await self._settle(self.request.gave_up(error)):
                return None

    async def _settle(self, error: ModelError) -> bool:
        """The user decides; True to try again, False to skip. Cancel raises TurnCancelled."""
        choice = await self._ask(error)
        if choice == "cancel":
            raise TurnCancelled
        if choice == "skip":
            self.sm.transition(S.DECIDING)
            return False
        if choice == WITHOUT_IMAGES:
            drop_images(self.deps.messages)
            await self.deps.save()
        elif choice == "alternative":
            await self.repairs.alternative(error, self.user_message)
        else:
            self.repairs.retried_by_choice(error)
        self.invalid_rounds = 0
        return True

    # --- the exchange: request, stream, tools -------------------------------------------------------

    async def _exchange(self) -> Reply:
        await self.deps.tools.take(self.budget.window)  # the round's tools: read what servers announced
        await self.request.read_layers(self.shared.workspace)  # an edit applies now
        await self.request.warm()
        body, estimate = self.request.build()
        self.records.open_bubble(self.round + 1)
        self.reply = reply = Reply()
        self.dispatcher = dispatcher = self.deps.dispatcher(
            self.context, self.guard, f"{self.turn_id}-r{self.round + 1}"
        )
        if self.profile.only_offered_run:
            dispatcher.offered = frozenset(str(d["name"]) for d in self.request.tool_defs())
        streaming = self.link.streaming
        decoder = StreamDecoder(
            self.link.dialect, self.request.tool_defs(), id_prefix=f"{self.turn_id}-r{self.round + 1}-"
        )
        on_ready = (lambda event: dispatcher.submit([self._call(event)])) if streaming else None
        await stream_reply(
            lambda: self.link.chat(body),
            decoder,
            self.emit,
            on_ready,
            reply,
            on_open=lambda: self.sm.transition(S.STREAMING),
        )
        self.request.measured(estimate, reply)
        if reply.failure is not None and not reply.received:
            raise reply.failure  # the stream failed before any output: a plain resend, in the same bubble
        if not streaming:
            dispatcher.submit([self._call(event) for event in reply.ready])
        for invalid in reply.invalid:
            dispatcher.fail(Call(invalid.id, invalid.name or "tool", {}), _invalid(invalid.reason))
        if reply.failure is None and reply.empty:
            return reply
        if dispatcher.pending:
            self.sm.transition(S.RUNNING_TOOLS)
        calls = await dispatcher.drain()
        self.records.record_reply(reply, "interrupted" if reply.failure else "done", calls)
        notice = await instructions_changed(
            self.shared.workspace, self.request.instructions, calls, self.shared.registry
        )
        if notice:
            self.emit(Notice(level="warning", message=notice))
        if reply.failure is not None:  # something arrived before the drop: keep it, continue after it
            self.records.close_bubble("interrupted")
            self.records.note(prompt.CONTINUE_AFTER_DROP)
        return reply

    def _call(self, event: ToolCallReady) -> Call:
        if self.request.forced and event.name == self.request.forced:
            self.request.forced = None
        return Call(event.id, event.name, dict(event.arguments), event.note)

    # --- deciding what comes next -----------------------------------------------------------------

    def _decide(self, reply: Reply) -> str:
        self.sm.transition(S.DECIDING)
        calls = self.dispatcher.calls if self.dispatcher else []
        repeated = self.guard.check_reply(reply.content, [(c.name, c.arguments) for c in calls])
        if reply.finish != "length":
            self.guard.round_finished()  # the continuation limit counts `length` rounds in a row
        if self.dispatcher is not None and self.dispatcher.stop_reason:
            return LOOP
        self.planner.track(reply.content, calls)
        if reply.invalid:
            self.invalid_rounds += 1
            if self.invalid_rounds > MATRIX[ErrorType.INVALID_FORMAT].retries:
                return INVALID
            self.records.note(prompt.CORRECT_FORMAT)
            return self._next_round()
        self.invalid_rounds = 0
        if repeated:
            return self.stopped("repeated_reply", repeated)
        names = {str(d["name"]) for d in self.request.tool_defs()}
        if calls or self.link.text_calls(reply, names) or self.link.calls_in_thinking(reply, names):
            return self._next_round()
        if reply.finish == "length":
            if not self.guard.may_continue():
                return self.stopped("length", _length_stop(self.guard.max_continuations))
            self.records.note(prompt.CONTINUE_AFTER_LENGTH)  # the bubble stays open: the answer goes on in it
            return NEXT
        return FINAL

    async def _after_loop_stop(self) -> str:
        """The loop guard refused a call: say why and let the user choose to go on or cancel."""
        assert self.dispatcher is not None and self.dispatcher.stop_reason is not None
        reason = self.dispatcher.stop_reason
        self.records.close_bubble("done")
        self.stopped("loop", reason)
        choice = await self.asks.to_go_on("loop", reason)
        if choice == "cancel":
            raise TurnCancelled
        if choice != "retry":
            return FINAL  # dismissed by a new message: the turn ends here, nothing lost
        self.guard.go_on()
        self.records.note(prompt.GO_ON_AFTER_LOOP)
        return self._next_round()

    def _next_round(self) -> str:
        self.round += 1
        self.records.close_bubble("done")
        if self.round >= self.max_rounds:
            return self.stopped(
                "max_rounds",
                f"The agent used all {self.max_rounds} tool rounds of this turn; send a message to go on.",
            )
        return NEXT

    def _respond(self) -> None:
        self.sm.transition(S.RESPONDING)
        self.planner.answered()
        self.records.close_bubble("done")
        self.sm.transition(S.COMPLETED)

    async def _wind_down(self, state: str) -> None:
        """Stop or failure: refuse what has not run, let running work finish, keep the partial answer."""
        calls: list[Call] = []
        if self.dispatcher is not None:
            calls = await self.dispatcher.stop()
        if self.reply is not None and (self.reply.received or calls):
            self.records.record_reply(self.reply, "interrupted", calls)
        self.records.close_bubble(state)
        if self.sm.state is not S.IDLE and self.sm.can(S.CANCELLED) and state == "interrupted":
            self.sm.transition(S.CANCELLED)

    def _fail(self, error: ModelError) -> None:
        self.emit(TurnFailed.of(error, final=True))
        if self.sm.can(S.ERROR):
            self.sm.transition(S.ERROR)

    # --- what the loop leans on: tools, the meter, the dialect, stops, the endpoint ---------------------

    def _tools(self) -> list[dict[str, Any]]:
        if self.mode == "chat":
            return []
        if self.profile.tools is not None:  # the few tools of its profile (the model in the page)
            return lean.described(self.profile, self.shared.registry.definitions(self.profile.tools))
        # the round's snapshot (turn_tools), remote servers' tools fitted to the window
        return lean.described(self.profile, self.deps.tools.definitions(self.budget.window))

    async def _squeeze(self, target: int) -> None:
        await self.compactor.squeeze_to(target, self.user_message)

    def stopped(self, reason: str, message: str) -> str:
        self.emit(LoopStopped(reason=reason, message=message))
        return FINAL

    async def _ask(self, error: ModelError) -> str:
        """ERROR state: show the failure and wait for the user's choice."""
        self.records.close_bubble("error")
        self.sm.transition(S.ERROR)
        choice = await self.asks.after_error(
            error,
            images=self.link.model_link.vision and carries_images(self.deps.messages),
        )
        self.link.adopt(self.shared.endpoint())
        return choice


def _length_stop(continuations: int) -> str:
    if continuations == 0:
        return "The answer hit the output limit, so it stopped."
    return f"The answer hit the output limit {continuations + 1} times in a row, so it stopped."


def _empty() -> ModelError:
    return ModelError(ErrorType.EMPTY_RESULT, "the model sent an empty reply")


def _invalid(reason: str) -> ToolResult:
    return ToolResult.failure(ToolErrorType.INVALID_ARGUMENT, f"The call could not be read: {reason}")
