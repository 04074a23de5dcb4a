"""The workspace's file room (`vfs.*` but imports and exports): the user's reads, writes and changes.

Every change made here is the user's (author "user"), recorded in the workspace's history like the
agent's. Bytes travel to and from the page in base64.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from agentlite.engine.locks import ResourceLocks
from agentlite.workspace import Workspace, diffs, text_merge
from agentlite.workspace.page_files import page_files

USER = "user"
ATTACHMENTS = "/attachments"
NAME_CHARS = 80  # an attachment's file name, cut


class FileRoom:
    def __init__(self, workspace: Workspace, locks: ResourceLocks) -> None:
        self.workspace = workspace
        self.locks = locks  # where the user's save meets a tool writing the same file

    async def read_text(self, path: str) -> str | None:
        return await self.workspace.read_text(path)

    async def read_base64(self, path: str) -> str | None:
        data = await self.workspace.read_bytes(path)
        return None if data is None else base64.b64encode(data).decode()

    async def write_text(self, path: str, text: str, base: str | None) -> None:
        """Save the user's text. `base` is the text the typing started from: a write of the agent's
        since then (waited for, under the path's lock) is merged in when the two touch different lines;
        when they touch the same lines the user's text is saved. Both writes stay in the history."""
        async with self.locks.hold(path):
            if base is not None:
                current = await self.workspace.read_text(path)
                if current is not None and current != base:
                    text = text_merge.merge(base, text, current) or text
            await self.workspace.write_text(path, text, author=USER)

    async def save_attachment(self, name: str, data: str) -> str:
        """An attached file saved under /attachments/ with a name that is free; its path."""
        stem, dot, ext = (_safe_name(name) or "attachment").rpartition(".")
        base, suffix = (stem, f".{ext}") if dot and stem else (ext, "")
        path, number = f"{ATTACHMENTS}/{base}{suffix}", 1
        while await self.workspace.exists(path):
            number += 1
            path = f"{ATTACHMENTS}/{base}-{number}{suffix}"
        await self.workspace.write(path, base64.b64decode(data), author=USER)
        return path

    async def listing(self, folder: str, recursive: bool) -> list[dict[str, Any]]:
        return await self.workspace.list(folder or "/", recursive=recursive)

    async def page_files(self, known: dict[str, str] | None) -> dict[str, Any]:
        return await page_files(self.workspace, known)

    async def history(self, path: str) -> list[dict[str, Any]]:
        return await self.workspace.history(path)

    async def diff_text(self, path: str, text: str) -> dict[str, Any]:
        """What writing `text` to `path` would change, nothing written: the unified diff and its added
        and removed line counts."""
        current = await self.workspace.read_text(path)
        diff = diffs.unified(current or "", text, path if current is not None else "/dev/null", path)
        lines = diff.splitlines()[2:]
        added = sum(1 for line in lines if line.startswith("+"))
        removed = sum(1 for line in lines if line.startswith("-"))
        return {"exists": current is not None, "diff": diff, "added": added, "removed": removed}

    async def undo(self, path: str) -> dict[str, Any]:
        return change_view(await self.workspace.undo(path, author=USER))

    async def revert_hunk(self, path: str, version: int, hunk: int) -> dict[str, Any]:
        return change_view(await self.workspace.revert_hunk(path, version, hunk, author=USER))

    async def undo_turn(self, turn: str) -> dict[str, Any]:
        return change_view(await self.workspace.undo_turn(turn, author=USER))

    async def restore_before(self, turn: str) -> dict[str, Any]:
        return change_view(await self.workspace.restore_before(turn, author=USER))

    async def delete(self, path: str) -> dict[str, Any]:
        return change_view(await self.workspace.delete(path, author=USER))

    async def rename(self, path: str, new_name: str) -> dict[str, Any]:
        return change_view(await self.workspace.rename(path, new_name, author=USER))

    async def move(self, source: str, destination: str) -> dict[str, Any]:
        return change_view(await self.workspace.move(source, destination, author=USER))

    async def create_folder(self, path: str) -> dict[str, Any]:
        return change_view(await self.workspace.create_folder(path, author=USER))

    async def check(self) -> list[str]:
        return await self.workspace.check()

    async def clear(self) -> None:
        await self.workspace.clear()


def change_view(change: Any) -> dict[str, Any]:
    """A recorded change as the page reads it."""
    return change.to_dict() if hasattr(change, "to_dict") else {"result": str(change)}


def _safe_name(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", str(name)).strip("._")[:NAME_CHARS]
