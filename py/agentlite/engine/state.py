"""The conversation state of one chat: one enum, one transition table, one `transition()`.

Merges origins: engine §5 (idle → waiting → streaming → tool calling → completed / error) with the
orchestration note's states (plan → tool_call → tool_result → decide → respond). Every move goes
through `StateMachine.transition()`, which refuses a move the table does not allow (a bug, never user input)
and reports the new state to the UI, so what the page shows is always what the engine is doing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any


class ChatState(enum.StrEnum):
    # No turn is running. Entry: the chat was created or restored, or a turn ended (completed, error,
    # cancelled): every ended turn comes back here with its messages kept.
    IDLE = "idle"
    # A user message arrived: the engine builds the turn's context (layered prompt, references, memory,
    # plan instruction) and compacts the history when it is over budget. Entry: a new turn from IDLE.
    PLANNING = "planning"
    # A POST /chat/completions is on its way and no byte of the answer has arrived. Entry: the first round
    # (from PLANNING), the next round (from DECIDING), a retry after a failure (from REQUESTING, STREAMING,
    # RUNNING_TOOLS when a dropped ndjson stream's ready tools finished first, or ERROR when the user chose
    # retry or an alternative).
    REQUESTING = "requesting"
    # The answer streams in: text, thinking and tool calls are shown as they arrive; in ndjson a tool that
    # is ready runs meanwhile. Entry: the response's status was good (from REQUESTING).
    STREAMING = "streaming"
    # The reply is complete and its tool calls run (approvals, locks, in order). Entry: the reply ended
    # with at least one tool call still to run or still running (from STREAMING).
    RUNNING_TOOLS = "running_tools"
    # The round is over; the engine decides what next: another round with the tool results, a
    # continuation after `length`, a correction request, or the final answer; loop detection and the
    # round limit are checked here. When the loop guard refused a call, the turn waits here for the
    # user (go on → REQUESTING, cancel → CANCELLED): a loop is not a failure, so not ERROR.
    # Entry: from STREAMING (no tools), RUNNING_TOOLS, or ERROR (skip).
    DECIDING = "deciding"
    # The final answer is in: the engine records it (history, plan ticks, memory) and closes the turn.
    # Entry: from DECIDING when no further round is needed or the engine stopped the loop.
    RESPONDING = "responding"
    # The turn finished normally. Entry: from RESPONDING. Next: IDLE.
    COMPLETED = "completed"
    # A failure its strategy could not fix. While a decision is offered (retry / alternative / skip /
    # cancel) the turn waits here; else the turn ends. Entry: from PLANNING, REQUESTING, STREAMING,
    # RUNNING_TOOLS or DECIDING. Next: REQUESTING, DECIDING, CANCELLED or IDLE.
    ERROR = "error"
    # The user stopped the turn (Esc, the stop button, or cancel in a decision); the partial answer is kept
    # and marked interrupted. Entry: from any state of a running turn. Next: IDLE.
    CANCELLED = "cancelled"


S = ChatState
RUNNING = frozenset(set(S) - {S.IDLE, S.COMPLETED, S.CANCELLED})

TRANSITIONS: dict[ChatState, frozenset[ChatState]] = {
    S.IDLE: frozenset({S.PLANNING}),
    S.PLANNING: frozenset({S.REQUESTING, S.ERROR, S.CANCELLED}),
    S.REQUESTING: frozenset({S.STREAMING, S.REQUESTING, S.ERROR, S.CANCELLED}),
    S.STREAMING: frozenset({S.RUNNING_TOOLS, S.DECIDING, S.REQUESTING, S.ERROR, S.CANCELLED}),
    S.RUNNING_TOOLS: frozenset({S.DECIDING, S.REQUESTING, S.ERROR, S.CANCELLED}),
    S.DECIDING: frozenset({S.REQUESTING, S.RESPONDING, S.ERROR, S.CANCELLED}),
    S.RESPONDING: frozenset({S.COMPLETED, S.CANCELLED}),
    S.COMPLETED: frozenset({S.IDLE}),
    S.ERROR: frozenset({S.REQUESTING, S.DECIDING, S.CANCELLED, S.IDLE}),
    S.CANCELLED: frozenset({S.IDLE}),
}


class IllegalTransition(RuntimeError):
    """A move the table refuses: an engine bug, reported loudly instead of showing a wrong state."""


class StateMachine:
    """The state of one chat; `on_change(state, previous, detail)` hears every accepted move."""

    def __init__(
        self, on_change: Callable[[ChatState, ChatState, dict[str, Any]], None] | None = None
    ) -> None:
        self.state = S.IDLE
        self.history: list[ChatState] = [S.IDLE]
        self._on_change = on_change

    @property
    def running(self) -> bool:
        return self.state in RUNNING

    def can(self, target: ChatState) -> bool:
        return target in TRANSITIONS[self.state]

    def transition(self, target: ChatState, **detail: Any) -> None:
        if not self.can(target):
            raise IllegalTransition(f"illegal chat state move {self.state.value} → {target.value}")
        previous, self.state = self.state, target
        self.history.append(target)
        if self._on_change is not None:
            self._on_change(target, previous, detail)

    def end_turn(self) -> None:
        """Whatever happened, the chat goes back to IDLE (through CANCELLED when the turn was cut short)."""
        if self.state in (S.COMPLETED, S.ERROR, S.CANCELLED):
            self.transition(S.IDLE)
        elif self.state is not S.IDLE:
            self.transition(S.CANCELLED)
            self.transition(S.IDLE)
