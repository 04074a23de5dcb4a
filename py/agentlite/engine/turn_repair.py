"""What a turn changes before it sends a failed round again (`engine.strategy`): the repair an automatic
retry names (a smaller request, a correction or a nudge to the model, a wait), and what the user chose
after the retries ran out (the alternative: compact, switch the dialect, go on without tools; or a plain
retry, with a word to the model on what went wrong)."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine import prompt
from agentlite.engine.chat_events import Emit, RetryScheduled
from agentlite.engine.compaction import Compactor
from agentlite.engine.dialect import empty_stream
from agentlite.engine.history import Message
from agentlite.engine.shrink import SHRINK_UNSTATED
from agentlite.engine.strategy import MATRIX, Alternative, Attempt, Repair
from agentlite.engine.turn_deps import SharedDeps
from agentlite.engine.turn_dialect import TurnDialect
from agentlite.engine.turn_request import NextRequest, Squeeze
from agentlite.errors import ErrorType, ModelError


class Repairs:
    """The turn's request, dialect and history, changed the way a failure calls for; `note` tells the
    model (hidden), `squeeze` cuts the history down to a size, `emit` tells the page."""

    def __init__(
        self,
        request: NextRequest,
        link: TurnDialect,
        compactor: Compactor,
        shared: SharedDeps,
        emit: Emit,
        note: Callable[[str], None],
        squeeze: Squeeze,
    ) -> None:
        self.request, self.link, self.compactor = request, link, compactor
        self.sleep, self.counts = shared.sleep, shared.server_counts  # the engine's clock, refusals' lessons
        self.note, self.squeeze, self.emit = note, squeeze, emit

    async def retry(self, error: ModelError, attempt: Attempt) -> bool:
        """Prepare the retry; False when the repair cannot change a request that must change."""
        if attempt.repair is Repair.TRUNCATE and not await self.request.shrink(
            error, attempt, self.counts, self.squeeze
        ):
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
            await self.sleep(attempt.wait_s)
        if attempt.repair is Repair.CORRECT:
            self.note(prompt.CORRECT_FORMAT)
        elif attempt.repair is Repair.NUDGE and not (
            empty_stream(error) and await self.request.cut(SHRINK_UNSTATED, self.squeeze)
        ):
            self.note(prompt.NUDGE_EMPTY)  # an empty stream may be a request too long for the server
        return True

    async def alternative(self, error: ModelError, user_message: Message | None) -> None:
        """The user's alternative to a plain retry, the one the failure's row of the matrix offers."""
        alternative = MATRIX[error.type].alternative
        if alternative is Alternative.COMPACT:
            await self.compactor.compact(user_message, hard=True)
        elif alternative is Alternative.SWITCH_DIALECT:
            self.link.switch_by_choice()
        elif alternative is Alternative.NO_TOOLS:
            self.request.no_tools = True
            self.note(prompt.NO_TOOLS_NOW)

    def retried_by_choice(self, error: ModelError) -> None:
        """The user chose to try again: tell the model what went wrong, when it can do better."""
        if error.type is ErrorType.EMPTY_RESULT:
            self.note(prompt.NUDGE_EMPTY)
        elif error.type is ErrorType.INVALID_FORMAT:
            self.note(prompt.CORRECT_FORMAT)
