"""The one user decision a chat may wait for: retry, alternative, skip or cancel."""

from __future__ import annotations

import asyncio


class DecisionBox:
    """The chat's open question; the page answers it through the chat, the turn waits on it."""

    def __init__(self) -> None:
        self.options: list[str] = []
        self._future: asyncio.Future[str] | None = None

    @property
    def waiting(self) -> bool:
        return self._future is not None and not self._future.done()

    async def wait(self, options: list[str]) -> str:
        self.options = list(options)
        self._future = asyncio.get_running_loop().create_future()
        try:
            return await self._future
        finally:
            self._future, self.options = None, []

    def answer(self, choice: str) -> bool:
        if not self.waiting or choice not in self.options:
            return False
        assert self._future is not None
        self._future.set_result(choice)
        return True

    def dismiss(self) -> None:
        """A new message went past the question: the step is skipped, whatever the options were."""
        if self.waiting:
            assert self._future is not None
            self._future.set_result("skip")
