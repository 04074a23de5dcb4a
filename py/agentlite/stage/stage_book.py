"""Every chat's stage in one workspace, and where each chat's turns write.

A chat whose changes land `review` (the page's setting) works on its stage in Agent and Plan turns; in
`apply` it writes to the workspace at once. A change of the workspace (here or in another tab) reaches
every stage, so each shows it from its next use; the page hears `stage_changed` after every change of a
stage, with how many files it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from agentlite.stage.layers import STAGE_STORE
from agentlite.stage.stage import Stage
from agentlite.stage.stage_changes import pending_count
from agentlite.stage.stage_state import StageState

log = logging.getLogger(__name__)
CHANGES = ("review", "apply")
COALESCE_S = 0.25
Announce = Callable[[str, int, str | None], None]  # (chat id, pending files, turn)


class StageBook:
    def __init__(self, base: Any, announce: Announce | None = None) -> None:
        self.base = base  # the Workspace
        self.changes = "apply"
        self._announce = announce or (lambda _chat, _pending, _turn: None)
        self._stages: dict[str, Stage] = {}
        self._counting: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        # tells the other tabs of the project that a chat's stage changed (the browser's host sets it)
        self.announce_elsewhere: Callable[[str], None] = lambda _chat: None
        base.add_listener(self._below_changed)

    def set_changes(self, changes: str) -> None:
        self.changes = changes if changes in CHANGES else "apply"

    def stage(self, chat: str) -> Stage:
        """The chat's stage (its state as last read; `load` reads every stage's state at start)."""
        if chat not in self._stages:
            self._stages[chat] = Stage(self.base, chat, StageState(), lambda: self._changed(chat))
        return self._stages[chat]

    @contextlib.asynccontextmanager
    async def using(self, chat: str) -> AsyncIterator[Stage]:
        """The chat's stage, read again, for one review or decision at a time: a review the page asks for
        while a decision is stored waits for it (and never reads the state back from under it)."""
        stage = self.stage(chat)
        async with stage.busy:
            await stage.reload()
            yield stage

    async def load(self) -> None:
        for key in await self.base.storage.keys(STAGE_STORE):
            chat, _, rest = key.rpartition("/")
            if rest == "state" and "/" not in chat:
                async with self.using(chat.replace("%2F", "/").replace("%25", "%")):
                    pass

    def staged(self, chat: str, mode: str) -> bool:
        """Whether this chat's turn in `mode` works on its stage."""
        return self.changes == "review" and mode != "chat"

    def forget(self, chat: str) -> None:
        self._stages.pop(chat, None)

    def _below_changed(self, _change: dict[str, Any]) -> None:
        for stage in self._stages.values():
            stage.below_changed()

    def heard(self, chat: str) -> None:
        """Another tab changed this chat's stage: read it again, and tell the page."""
        self.stage(chat).below_changed()
        self._recount(chat)

    def _changed(self, chat: str) -> None:
        self.announce_elsewhere(chat)
        self._recount(chat)

    def _recount(self, chat: str) -> None:
        """Count the stage's files once the change is stored, then tell the page (one count at a time)."""
        running = self._counting.get(chat)
        if running is not None and not running.done():
            self._again.add(chat)
            return
        self._counting[chat] = asyncio.ensure_future(self._count(chat))

    async def _count(self, chat: str) -> None:
        while True:
            await asyncio.sleep(COALESCE_S)  # a turn's burst of writes is counted once
            self._again.discard(chat)
            try:
                stage = self.stage(chat)
                pending = pending_count(await self.base.heads(), await stage.workspace().heads())
                self._announce(chat, pending, await stage.turn() if pending else None)
            except Exception:  # a count that fails must not break the change that asked for it
                log.exception("could not count the stage of chat %s", chat)
            if chat not in self._again:
                return
