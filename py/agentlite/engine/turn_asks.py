"""Asking the user mid-turn: what to do after a failure, or whether to go on after a loop stop."""

from __future__ import annotations

from agentlite.engine.chat_events import DecisionAsked, DecisionMade, Emit, TurnFailed
from agentlite.engine.decisions import DecisionBox
from agentlite.engine.strategy import ADVICE, MATRIX, decision_options
from agentlite.errors import ModelError, refuses_images

WITHOUT_IMAGES = "without_images"  # the decision that sends the turn again with its images named, not sent
GO_ON_ADVICE = "Retry lets the agent go on (the repeated call may run again); Cancel ends the turn."


class UserAsks:
    """Shows the question, waits on the chat's decision box, says when it was answered."""

    def __init__(self, decisions: DecisionBox, emit: Emit) -> None:
        self.decisions, self.emit = decisions, emit

    async def after_error(self, error: ModelError, images: bool = False) -> str:
        """The retries ran out: the banner, then the options the strategy matrix gives this error; when
        the request carried `images` and the server refused them, "Retry without images" first."""
        options = decision_options(error.type)
        if images and refuses_images(error.message):
            options = [WITHOUT_IMAGES, *options]
        self.emit(TurnFailed.of(error, final=False))
        self.emit(
            DecisionAsked(
                error_type=error.type.value,
                message=error.message,
                advice=ADVICE[error.type],
                options=options,
                settings=MATRIX[error.type].ask_settings,
            )
        )
        return await self._wait(options)

    async def to_go_on(self, reason: str, message: str) -> str:
        """The engine stopped the loop (`reason`); the user chooses to go on (retry) or cancel. A new
        message dismisses the question (skip: the turn ends as it is)."""
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
        return await self._wait(options)

    async def _wait(self, options: list[str]) -> str:
        choice = await self.decisions.wait(options)
        self.emit(DecisionMade(choice=choice))
        return choice
