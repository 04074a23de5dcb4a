"""One agent turn: the tool loop from a user message to the final answer (origins: native-deltas, origins:
engine §7, §10).

Request → stream → run the ready tools → send the results → next request, until the model answers
without tools, the round limit is reached, or the loop guard stops it. Failures go through the strategy
matrix (`engine.strategy`); when the retries run out the user decides. Every state change goes through
the chat's state machine; everything the UI shows goes out through `emit` (see `engine.chat_events`).

A round's reply is one assistant bubble (`message_start` … `message_end`); a `length` continuation keeps
writing into the same bubble. Nothing is lost on the way out: a stopped or failed turn keeps its
partial answer (marked interrupted) and every tool result, and the chat returns to idle.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from agentlite.engine import prompt
from agentlite.engine.chat_events import RetryScheduled, TurnFailed
from agentlite.engine.context import window
from agentlite.engine.dialect import PROMPT_DIALECTS, empty_stream, rejects_tools, writes_calls_as_text
from agentlite.engine.dispatch import Call
from agentlite.engine.loopguard import MAX_CONTINUATIONS
from agentlite.engine.reply import Reply, stream_reply
from agentlite.engine.shrink import SHRINK_UNSTATED, squeeze, stated_overflow, target_for
from agentlite.engine.state import ChatState as S
from agentlite.engine.strategy import MATRIX, Alternative, Attempt, Repair, next_attempt
from agentlite.engine.turn_setup import TurnSetup
from agentlite.errors import ErrorType, ModelError
from agentlite.events import ToolCallReady
from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.request import build_request
from agentlite.tools.result import ToolErrorType, ToolResult
from agentlite.transport import ModelRequest

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
NEXT, FINAL, INVALID, LOOP = "next", "final", "invalid", "loop"


class TurnCancelled(Exception):
    """The user chose cancel in a decision."""


class Turn(TurnSetup):
    winding_down = False  # set once the turn is stopping: a second stop must not cut the clean-up short
    sent: tuple[dict[str, Any], int] = ({}, 0)  # the last request's body and our count of its tokens
    thinking_noted = False  # the model was told once this turn that a call in its thinking did not run
    text_calls_noted = False  # the same, for a call written as text under a native dialect the user chose

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
            await self.chat.turn_ended(self, outcome)

    async def _run(self) -> None:
        self.sm.transition(S.PLANNING)
        await self.prepare()
        await self.engine.save_chat(self.chat)  # the user's message survives a closed page
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
            await self.compact()
            await self.engine.save_chat(self.chat)  # every finished round, not only the turn
        self._respond()

    # --- one round, with the strategy matrix ------------------------------------------------------

    async def _attempt(self) -> Reply | None:
        failures: dict[ErrorType, int] = {}
        while True:
            self.sm.transition(S.REQUESTING, round=self.round + 1)
            error: ModelError | None
            try:
                reply = await self._exchange()
                error = reply.failure or (self._empty() if reply.empty else None)
            except ModelError as failure:
                error = failure
            if error is None:
                return reply
            if self._fall_back_to_json(error):
                continue
            failures[error.type] = failures.get(error.type, 0) + 1
            attempt = next_attempt(error, failures[error.type], self.engine.backoff)
            if attempt is not None and await self._retry(error, attempt):
                continue
            failures.clear()
            if not await self._settle(error):
                return None

    def _empty(self) -> ModelError:
        return ModelError(ErrorType.EMPTY_RESULT, "the model sent an empty reply")

    async def _retry(self, error: ModelError, attempt: Attempt) -> bool:
        """Prepare the retry; False when the repair cannot change a request that must change."""
        if attempt.repair is Repair.TRUNCATE and not await self._shrink(error, attempt):
            return False
        of = MATRIX[error.type].retries
        self.emit(
            RetryScheduled(
                attempt=attempt.number,
                of=of,
                wait_s=attempt.wait_s,
                error_type=error.type.value,
                message=error.message,
            )
        )
        if attempt.wait_s > 0:
            await self.engine.sleep(attempt.wait_s)
        if attempt.repair is Repair.CORRECT:
            self.note(prompt.CORRECT_FORMAT)
        elif attempt.repair is Repair.NUDGE and not (
            empty_stream(error) and await self._cut(SHRINK_UNSTATED)
        ):
            self.note(prompt.NUDGE_EMPTY)  # an empty stream may be a request too long for the server
        return True

    async def _shrink(self, error: ModelError, attempt: Attempt) -> bool:
        """After a `context_length` refusal: learn the window it states, then cut until the request fits
        (docs/protocol.md, "Context windows that shrink"). Never the same body twice."""
        refused, refused_size = self.sent
        overflow = stated_overflow(error.message)
        if overflow.window:
            self.engine.windows[(self.settings.base_url, self.settings.model)] = overflow.window
            self.budget.window = min(self.budget.window, overflow.window)
        else:
            self.keep = 10 if attempt.number <= 1 else 5  # no size stated: cut by message count first
        if overflow.sent:
            self.counter.calibrate(refused_size, overflow.sent)  # count in the server's tokens from now
        target = target_for(overflow, self.budget.limit, overflow.sent or refused_size)
        if overflow.window or self._body()[0] == refused:
            return await self._cut(target / max(1, self.request_size()))
        return True

    async def _cut(self, share: float) -> bool:
        """Squeeze the next request to `share` of its size; whether its body now differs from the last."""
        refused, target = self.sent[0], int(self.request_size() * share)
        messages, memo = self.chat.messages, self.chat.memo
        await squeeze(messages, memo, self.user_message, self.request_size, target, self._summarize)
        return self._body()[0] != refused

    async def _settle(self, error: ModelError) -> bool:
        """The user decides; True to try again, False to skip. Cancel raises TurnCancelled."""
        choice = await self.ask(error)
        if choice == "cancel":
            raise TurnCancelled
        if choice == "skip":
            self.sm.transition(S.DECIDING)
            return False
        if choice == "alternative":
            await self._alternative(MATRIX[error.type].alternative)
        elif error.type is ErrorType.EMPTY_RESULT:
            self.note(prompt.NUDGE_EMPTY)
        elif error.type is ErrorType.INVALID_FORMAT:
            self.note(prompt.CORRECT_FORMAT)
        self.invalid_rounds = 0
        return True

    async def _alternative(self, alternative: Alternative | None) -> None:
        if alternative is Alternative.COMPACT:
            await self.compact(hard=True)
        elif alternative is Alternative.SWITCH_DIALECT:
            self.switch_dialect("native" if self.dialect in PROMPT_DIALECTS else "json", "chosen by the user")
        elif alternative is Alternative.NO_TOOLS:
            self.no_tools = True
            self.note(prompt.NO_TOOLS_NOW)

    def _fall_back_to_json(self, error: ModelError) -> bool:
        if self.settings.dialect != "auto" or self.dialect != "native":
            return False
        if rejects_tools(error):
            self.switch_dialect("json", "the endpoint does not accept native tools")
            return True
        if empty_stream(error) and self.tool_defs():
            self.switch_dialect("json", "the endpoint sent an empty stream for a request with tools")
            return True
        return False

    # --- the exchange: request, stream, tools -------------------------------------------------------

    async def _exchange(self) -> Reply:
        request, estimate = self._request()
        self.open_bubble()
        self.reply = reply = Reply()
        self.dispatcher = dispatcher = self.new_dispatcher()
        streaming = self.dialect in ("ndjson", "ndjson-text")
        decoder = StreamDecoder(
            self.dialect, self.tool_defs(), id_prefix=f"{self.turn_id}-r{self.round + 1}-"
        )
        on_ready = (lambda event: dispatcher.submit([self._call(event)])) if streaming else None
        await stream_reply(
            self.transport,
            request,
            decoder,
            self.emit,
            on_ready,
            reply,
            on_open=lambda: self.sm.transition(S.STREAMING),
        )
        self.measured(estimate, reply)
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
        self.record_reply(reply, "interrupted" if reply.failure else "done", await dispatcher.drain())
        if reply.failure is not None:  # something arrived before the drop: keep it, continue after it
            self.close_bubble("interrupted")
            self.note(prompt.CONTINUE_AFTER_DROP)
        return reply

    def _call(self, event: ToolCallReady) -> Call:
        if self.forced and event.name == self.forced:
            self.forced = None
        return Call(event.id, event.name, dict(event.arguments), event.note)

    def request_size(self) -> int:
        return self._body()[1]

    def _request(self) -> tuple[ModelRequest, int]:
        body, estimate = self._body()
        self.sent = (body, estimate)
        self.meter(estimate, "estimate")
        url = (
            f"{self.settings.base_url}/chat/completions"
            if self.settings.base_url
            else "demo:/chat/completions"
        )
        return ModelRequest("POST", url, self.settings.headers(), body), estimate

    def _body(self) -> tuple[dict[str, Any], int]:
        """The next request's body and our count of its tokens (no side effects: retries compare it)."""
        history = window(self.chat.messages, self.chat.memo, self.keep, current=self.user_message)
        dialect, tools = self.dialect, self.tool_defs()
        if not tools:
            dialect, history = "native", _flatten(history)
        extra: dict[str, Any] = {}
        if self.forced and dialect == "native" and tools:
            extra["tool_choice"] = {"type": "function", "function": {"name": self.forced}}
        body = build_request(self.settings.model, dialect, history, tools, system=self.system, extra=extra)
        estimate = self.counter.messages(body["messages"])
        if body.get("tools"):
            estimate += self.counter.text(json.dumps(body["tools"]))
        return body, estimate

    # --- deciding what comes next -----------------------------------------------------------------

    def _decide(self, reply: Reply) -> str:
        self.sm.transition(S.DECIDING)
        calls = self.dispatcher.calls if self.dispatcher else []
        repeated = self.guard.check_reply(reply.content, [(c.name, c.arguments) for c in calls])
        if reply.finish != "length":
            self.guard.round_finished()  # the continuation limit counts `length` rounds in a row
        if self.dispatcher is not None and self.dispatcher.stop_reason:
            return LOOP
        self.track_plan(reply, calls)
        if reply.invalid:
            self.invalid_rounds += 1
            if self.invalid_rounds > MATRIX[ErrorType.INVALID_FORMAT].retries:
                return INVALID
            self.note(prompt.CORRECT_FORMAT)
            return self._next_round()
        self.invalid_rounds = 0
        if repeated:
            return self.stopped("repeated_reply", repeated)
        if calls or self._native_text_calls(reply) or self._calls_in_thinking(reply):
            return self._next_round()
        if reply.finish == "length":
            if not self.guard.may_continue():
                return self.stopped(
                    "length",
                    f"The answer hit the output limit {MAX_CONTINUATIONS} times in a row, so it stopped.",
                )
            self.note(prompt.CONTINUE_AFTER_LENGTH)  # the bubble stays open: the answer goes on in it
            return NEXT
        return FINAL

    async def _after_loop_stop(self) -> str:
        """The loop guard refused a call: say why and let the user choose to go on or cancel."""
        assert self.dispatcher is not None and self.dispatcher.stop_reason is not None
        reason = self.dispatcher.stop_reason
        self.close_bubble("done")
        self.stopped("loop", reason)
        choice = await self.ask_to_go_on("loop", reason)
        if choice == "cancel":
            raise TurnCancelled
        if choice != "retry":
            return FINAL  # dismissed by a new message: the turn ends here, nothing lost
        self.guard.go_on()
        self.note(prompt.GO_ON_AFTER_LOOP)
        return self._next_round()

    def _next_round(self) -> str:
        self.round += 1
        self.close_bubble("done")
        if self.round >= self.max_rounds:
            return self.stopped(
                "max_rounds",
                f"The agent used all {self.max_rounds} tool rounds of this turn; send a message to go on.",
            )
        return NEXT

    def _native_text_calls(self, reply: Reply) -> bool:
        names = {str(d["name"]) for d in self.tool_defs()}
        if self.dialect != "native" or not names or not writes_calls_as_text(reply.content, names):
            return False
        if self.settings.dialect == "auto":
            self.switch_dialect("json", "the model writes tool calls as text")
            self.note(prompt.CORRECT_FORMAT)
            return True
        if self.text_calls_noted:  # native was chosen: say it once per turn, then the answer stands
            return False
        self.text_calls_noted = True
        self.note(prompt.CALL_AS_TEXT)
        return True

    def _calls_in_thinking(self, reply: Reply) -> bool:
        """A call written only inside the thinking (docs/protocol.md, "Messy tool calls"): say once per
        turn that it did not run, so the model can write it where it runs."""
        names = {str(d["name"]) for d in self.tool_defs()}
        thinking = "".join(reply.thinking)
        if self.thinking_noted or not names or not writes_calls_as_text(thinking, names):
            return False
        self.thinking_noted = True
        self.note(prompt.CALL_IN_THINKING)
        return True

    def _respond(self) -> None:
        self.sm.transition(S.RESPONDING)
        if self.plan is not None and self.plan.tick_answer():
            self.emit_plan()
        self.close_bubble("done")
        self.sm.transition(S.COMPLETED)

    async def _wind_down(self, state: str) -> None:
        """Stop or failure: refuse what has not run, let running work finish, keep the partial answer."""
        calls: list[Call] = []
        if self.dispatcher is not None:
            calls = await self.dispatcher.stop()
        if self.reply is not None and (self.reply.received or calls):
            self.record_reply(self.reply, "interrupted", calls)
        self.close_bubble(state)
        if self.sm.state is not S.IDLE and self.sm.can(S.CANCELLED) and state == "interrupted":
            self.sm.transition(S.CANCELLED)

    def _fail(self, error: ModelError) -> None:
        self.emit(TurnFailed.of(error, final=True))
        if self.sm.can(S.ERROR):
            self.sm.transition(S.ERROR)


def _invalid(reason: str) -> ToolResult:
    return ToolResult.failure(ToolErrorType.INVALID_ARGUMENT, f"The call could not be read: {reason}")


def _flatten(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """History for a request without tools (Chat mode): calls as prose, results as user text."""
    flat: list[dict[str, Any]] = []
    for message in history:
        if message["role"] == "tool":
            text = f"[tool result · {message.get('name')} · {'ok' if message.get('ok') else 'error'}]\n"
            item = {"role": "user", "content": text + str(message.get("content") or "")}
        elif message["role"] == "assistant":
            calls = ", ".join(c["name"] for c in message.get("tool_calls") or ())
            content = str(message.get("content") or "") + (f"\n(used tools: {calls})" if calls else "")
            item = {"role": "assistant", "content": content.strip() or "(no text)"}
        else:
            item = {"role": message["role"], "content": message.get("content") or ""}
        if flat and flat[-1]["role"] == item["role"] == "user":
            flat[-1]["content"] += "\n\n" + item["content"]
        else:
            flat.append(item)
    return flat
