"""The stages' room (`stage.*`): the review of a chat's staged changes, and the user's decisions.

Every answer is the chat's review after the call (`Stage.review`), so the page shows what is left.
See docs/stage.md.
"""

from __future__ import annotations

from typing import Any

from agentlite.stage.dropped import dropped_for
from agentlite.stage.stage import Pick, Stage
from agentlite.stage.stage_book import StageBook
from agentlite.stage.stage_review import is_instructions
from agentlite.workspace import Workspace, paths
from agentlite.workspace.page_files import page_files
from agentlite.workspace.workspace_errors import InvalidArgument


class StageRoom:
    def __init__(self, workspace: Workspace, stages: StageBook | None) -> None:
        self.workspace = workspace
        self.stages = stages

    def _book(self) -> StageBook:
        if self.stages is None:
            raise InvalidArgument("there is no workspace to stage changes on")
        return self.stages

    async def review(self, chat: str) -> dict[str, Any]:
        async with self._book().using(chat) as stage:
            return await stage.review()

    async def file(self, chat: str, path: str) -> dict[str, Any]:
        async with self._book().using(chat) as stage:
            return await stage.file(paths.normalize(path, allow_root=False))

    async def decide(
        self, chat: str, keep: bool, paths_: list[str] | None, path: str | None, hunks: list[int] | None
    ) -> dict[str, Any]:
        picks: dict[str, Pick] = {}
        for item in paths_ or []:
            picks[paths.normalize(item, allow_root=False)] = Pick(keep)
        if path is not None:
            chosen = frozenset(int(h) for h in hunks) if hunks is not None else None
            picks[paths.normalize(path, allow_root=False)] = Pick(keep, chosen)
        if not picks:
            raise InvalidArgument("name the files (paths) or a file and its hunks (path, hunks)")
        async with self._book().using(chat) as stage:
            return await stage.decide(picks)

    async def keep(
        self, chat: str, paths_: list[str] | None, path: str | None, hunks: list[int] | None
    ) -> dict[str, Any]:
        return await self.decide(chat, True, paths_, path, hunks)

    async def drop(
        self, chat: str, paths_: list[str] | None, path: str | None, hunks: list[int] | None
    ) -> dict[str, Any]:
        return await self.decide(chat, False, paths_, path, hunks)

    async def keep_all(self, chat: str) -> dict[str, Any]:
        return await self.every(chat, True)

    async def drop_all(self, chat: str) -> dict[str, Any]:
        return await self.every(chat, False)

    async def every(self, chat: str, keep: bool) -> dict[str, Any]:
        """Keep or drop every pending file. Keep all leaves a conflict, and an instruction file the user
        has not opened in the review, pending (the review lists the latter as `held`)."""
        async with self._book().using(chat) as stage:
            return await self._every(stage, keep)

    async def _every(self, stage: Stage, keep: bool) -> dict[str, Any]:
        review = await stage.review()
        chosen = [
            row["path"]
            for row in review["files"]
            if row["state"] == "pending"
            and not (keep and is_instructions(row["path"]) and row["path"] not in stage.state.shown)
        ]
        return await stage.decide({p: Pick(keep) for p in chosen}) if chosen else review

    async def resolve(self, chat: str, path: str, take: str) -> dict[str, Any]:
        async with self._book().using(chat) as stage:
            return await stage.resolve(paths.normalize(path, allow_root=False), take)

    def _view(self, chat: str | None) -> Workspace:
        """The workspace as kept (no chat), or as the chat's stage shows it (the workspace's files where
        the stage has no change)."""
        return self.workspace if chat is None else self._book().stage(chat).workspace()

    async def page_files(self, known: dict[str, str] | None, chat: str | None) -> dict[str, Any]:
        return await page_files(self._view(chat), known)

    async def diff(self, path: str, old: int | None, new: int | None, chat: str | None) -> str:
        return await self._view(chat).diff(path, old, new)

    async def dropped(self, path: str) -> list[dict[str, Any]]:
        """The proposals dropped for the file at `path` in any chat, oldest first (its history lists them)."""
        return await dropped_for(self.workspace.storage, paths.normalize(path, allow_root=False))

    async def read_text(self, path: str, chat: str | None) -> str | None:
        return await self._view(chat).read_text(path)
