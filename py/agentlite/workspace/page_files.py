"""The workspace's files for the page's preview (web/src/preview/, docs/preview.md) in one call.

The page keeps what it was given by sha256 and names it in `known`: only new or changed files come
back with their content, so a reload after one write moves one file. Binary files travel as base64.
"""

from __future__ import annotations

import base64
from typing import Any, Protocol

MAX_TOTAL_BYTES = 32 * 1024 * 1024  # a preview gets at most this much content per call


class FileSource(Protocol):
    """What this module reads of a workspace (the `Workspace` facade is one): the machinery's modules
    name the few methods they use instead of importing the facade (docs/architecture.md)."""

    async def list(
        self, dir: str = "/", recursive: bool = False, details: bool = False
    ) -> list[dict[str, Any]]: ...

    async def read_bytes(self, path: str) -> bytes | None: ...


async def page_files(workspace: FileSource, known: dict[str, str] | None = None) -> dict[str, Any]:
    """`{"files": [{path, sha256, text | base64}], "kept": [path], "skipped": [path]}`: every file of
    the workspace, either with its content, or kept (the page has it: same sha256), or skipped (too big
    for what is left of MAX_TOTAL_BYTES)."""
    known = known or {}
    files: list[dict[str, Any]] = []
    kept: list[str] = []
    skipped: list[str] = []
    budget = MAX_TOTAL_BYTES
    for entry in await workspace.list("/", recursive=True, details=True):
        path, sha = entry["path"], entry.get("sha256")
        if entry["kind"] != "file" or sha is None:
            continue
        if known.get(path) == sha:
            kept.append(path)
            continue
        if entry.get("size", 0) > budget:
            skipped.append(path)
            continue
        data = await workspace.read_bytes(path)
        if data is None:
            continue
        budget -= len(data)
        item: dict[str, Any] = {"path": path, "sha256": sha}
        if entry.get("binary"):
            item["base64"] = base64.b64encode(data).decode()
        else:
            item["text"] = data.decode("utf-8", "replace")
        files.append(item)
    return {"files": files, "kept": kept, "skipped": skipped}
