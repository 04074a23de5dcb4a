"""The workspace's transfers (`vfs.*` imports and exports): zips, git, local folders in batches and
the opened folder's mirror plan.

Git's package (dulwich) is loaded on first use. A folder arrives in batches staged here and committed
as ONE recorded change: the user's, or a change made outside the app to the opened folder.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.engine.commit_notes import commit_notes
from agentlite.engine.session import ChatSession
from agentlite.rooms.file_room import USER, change_view
from agentlite.workspace import Workspace, archive, mirror
from agentlite.workspace.staging import ImportStaging
from agentlite.workspace.turns import DISK_AUTHOR

GIT_PACKAGES = ["dulwich"]  # loaded on first use: the git export and the import of a git working copy
LoadPackages = Callable[[list[str]], Awaitable[None]]


class TransferRoom:
    def __init__(
        self, workspace: Workspace, chats: dict[str, ChatSession], load_packages: LoadPackages
    ) -> None:
        self.workspace = workspace
        self.chats = chats  # their turns' messages become the git commits' messages
        self.load_packages = load_packages
        self.staging = ImportStaging()

    async def export_zip(self, history: bool) -> str:
        return base64.b64encode(await self.workspace.export_zip(history=history)).decode()

    async def import_zip(self, data: str, history: bool | None, replace: bool) -> dict[str, Any]:
        """With `replace` and `history`, the zip's history replaces this one in one commit, made once the
        whole archive passed its checks (a refused one leaves the workspace as it was)."""
        raw = base64.b64decode(data)
        if not history and archive.holds_git(raw):
            await self.load_packages(GIT_PACKAGES)
        return change_view(await self.workspace.import_zip(raw, history=history, replace_all=replace))

    async def export_git(self) -> dict[str, Any]:
        """The workspace as a git repository (base64 zip with `.git/`) and its number of commits."""
        await self.load_packages(GIT_PACKAGES)
        notes = commit_notes(session.to_record() for session in self.chats.values())
        data, commits = await self.workspace.export_git(notes)
        return {"data": base64.b64encode(data).decode(), "commits": commits}

    def import_start(self) -> str:
        return self.staging.begin()

    def import_add(
        self, key: str, files: list[dict[str, Any]], data: str, folders: list[str] | None
    ) -> dict[str, int]:
        """One batch: `files` as `{path, size}`, `data` their bytes one after the other in base64."""
        batch = split_batch(base64.b64decode(data), files)
        staged = self.staging.add(key, batch, list(folders or []), self.workspace.max_file_size)
        return {"files": len(staged.files), "bytes": staged.size}

    async def import_finish(self, key: str, disk: bool, deleted: list[str] | None) -> dict[str, Any]:
        """Every batch as one change; `disk`: made outside the app (`deleted`: its files gone from disk)."""
        staged = self.staging.take(key)
        author = DISK_AUTHOR if disk else USER
        folders = sorted(staged.folders)
        change = await self.workspace.import_files(
            staged.files, folders, deleted=list(deleted or []), author=author
        )
        return change_view(change)

    def import_cancel(self, key: str) -> None:
        self.staging.cancel(key)

    async def mirror_plan(
        self,
        disk: dict[str, str],
        synced: dict[str, str],
        only: list[str] | None,
        disk_folders: list[str] | None,
        synced_folders: list[str] | None,
    ) -> dict[str, Any]:
        """What to write where and what conflicts, from the disk's and the last sync's sha256 by path."""
        listing = await self.workspace.list("/", recursive=True, details=True)
        files = {e["path"]: e["sha256"] for e in listing if e["kind"] == "file"}
        folders = [e["path"] for e in listing if e["kind"] == "dir"]
        result = mirror.plan(files, disk, synced, only).to_dict()
        found = mirror.plan_folders(folders, disk_folders or [], synced_folders or [], only)
        return result | {"folders": found.to_dict(), "max_file_size": self.workspace.max_file_size}


def split_batch(data: bytes, files: list[dict[str, Any]]) -> dict[str, bytes]:
    """path -> bytes from the batch's concatenated bytes and each file's size."""
    if sum(int(f["size"]) for f in files) != len(data):
        raise ValueError("the batch's sizes do not add up to its bytes")
    batch: dict[str, bytes] = {}
    at = 0
    for f in files:
        batch[str(f["path"])] = data[at : at + int(f["size"])]
        at += int(f["size"])
    return batch
