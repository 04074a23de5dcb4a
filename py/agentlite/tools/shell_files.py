"""Which workspace files a shell command gets, and how its file changes come back into the workspace.

The shell runs in a sandbox over an in-memory copy of the files it is given (text only). The rule:
every text file is given when they all fit in `shell_files_bytes` (files over `shell_file_bytes` are
left out); otherwise the files the command mentions come first (a path, a folder, a glob such as
`src/*.ts`), then the others, smallest first, while they fit. Every folder is given, so `ls` and
`find` see the whole tree.

Back from the run come `changed` (path -> text), `deleted` and `created_dirs`. They are applied under
the current turn, by `shell`, so undoing the turn undoes them. A file is not overwritten when the
command could not have seen its content: when it changed in the workspace while the command ran, or
when it was not given (binary, or over the budget) — a `>>` append would otherwise replace it whole.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, Literal

from agentlite.tools.context import ToolSettings
from agentlite.workspace import Workspace, WorkspaceError, paths
from agentlite.workspace.errors import size_text

_TOKENS = re.compile(r"[^\s;|&<>()'\"`=,]+")
_GLOB = re.compile(r"[*?\[]")
SHOWN_LEFT_OUT = 10
Outcome = (
    tuple[Literal["created", "modified", "deleted", "folders"], str] | str | None
)  # done, refused, no-op


@dataclass
class Staged:
    """What the shell is given, and what the workspace held at that moment."""

    files: dict[str, str] = field(default_factory=dict)  # path -> text given
    dirs: list[str] = field(default_factory=list)
    existing: set[str] = field(default_factory=set)  # every file path, given or not
    left_out: list[str] = field(default_factory=list)  # text files not given (over the budget)
    left_out_bytes: int = 0

    def note(self, budget: int) -> str:
        if not self.left_out:
            return ""
        shown = ", ".join(self.left_out[:SHOWN_LEFT_OUT]) + (
            ", ..." if len(self.left_out) > SHOWN_LEFT_OUT else ""
        )
        return (
            f"Not given to the shell (over the {size_text(budget)} budget): {len(self.left_out)} files, "
            f"{size_text(self.left_out_bytes)}: {shown}. "
            "Name a file or folder in the command to have it given."
        )


@dataclass
class Applied:
    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why it was not applied)

    def to_dict(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "modified": self.modified,
            "deleted": self.deleted,
            "folders": self.folders,
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
        }

    def note(self) -> str:
        parts = [
            f"{label} {', '.join(found)}"
            for label, found in (
                ("created", self.created),
                ("modified", self.modified),
                ("deleted", self.deleted),
                ("new folders", self.folders),
            )
            if found
        ]
        lines = ["Files changed by the command (recorded, undoable): " + "; ".join(parts)] if parts else []
        lines += [f"Not applied: {path}: {reason}" for path, reason in self.skipped]
        return "\n".join(lines)


def mentioned(command: str, files: list[str], dirs: set[str]) -> list[str]:
    """The files a command names: a path, a folder (everything below it), or a glob; relative to `/`."""
    found: list[str] = []
    for token in _TOKENS.findall(command):
        token = token.removeprefix("./").rstrip("/") or "/"
        if _GLOB.search(token):
            pattern = token if token.startswith("/") else "/" + token
            found += [f for f in files if fnmatch.fnmatchcase(f, pattern)]
            continue
        try:
            path = paths.normalize(token)
        except WorkspaceError:
            continue
        if path in dirs:
            found += [f for f in files if paths.is_below(f, path)]
        elif path != paths.ROOT:
            found += [f for f in files if f == path]
    return list(dict.fromkeys(found))


async def stage(workspace: Workspace, command: str, settings: ToolSettings) -> Staged:
    entries = await workspace.list("/", recursive=True, details=True)
    staged = Staged(dirs=[e["path"] for e in entries if e["kind"] == "dir"])
    sizes = {
        e["path"]: int(e.get("size") or 0) for e in entries if e["kind"] == "file" and not e.get("binary")
    }
    staged.existing = {e["path"] for e in entries if e["kind"] == "file"}
    chosen = _choose(command, sizes, set(staged.dirs), settings)
    for path in sizes:
        if path not in chosen:
            staged.left_out.append(path)
            staged.left_out_bytes += sizes[path]
    for path in chosen:
        text = await workspace.read_text(path)
        if text is not None:
            staged.files[path] = text
    return staged


def _choose(command: str, sizes: dict[str, int], dirs: set[str], settings: ToolSettings) -> list[str]:
    small = [p for p in sorted(sizes) if sizes[p] <= settings.shell_file_bytes]
    if sum(sizes[p] for p in small) <= settings.shell_files_bytes:
        return small
    named = mentioned(command, sorted(sizes), dirs)
    rest = sorted((p for p in small if p not in set(named)), key=lambda p: (sizes[p], p))
    chosen: list[str] = []
    used = 0
    for path in [*named, *rest]:
        if used + sizes[path] <= settings.shell_files_bytes:
            chosen.append(path)
            used += sizes[path]
    return chosen


async def apply(
    workspace: Workspace, staged: Staged, result: dict[str, Any], turn: str, author: str
) -> Applied:
    """Record the run's file changes: deletes, then writes, then new folders (each checked first)."""
    applied = Applied()
    who = {"turn": turn, "author": author}
    for path in sorted(str(p) for p in result.get("deleted") or []):
        await _attempt(applied, path, _delete(workspace, staged, path, who))
    changed = result.get("changed") or {}
    for path in sorted(changed):
        await _attempt(applied, path, _write(workspace, staged, path, str(changed[path]), who))
    for path in sorted(str(p) for p in result.get("created_dirs") or []):
        await _attempt(applied, path, _folder(workspace, path, who))
    return applied


async def _attempt(applied: Applied, path: str, step: Awaitable[Outcome]) -> None:
    """Run one step and note its outcome: (which list, path) when done, or the reason it was refused."""
    try:
        outcome = await step
    except WorkspaceError as error:
        applied.skipped.append((path, error.message))
        return
    if isinstance(outcome, str):
        applied.skipped.append((path, outcome))
    elif outcome is not None:
        getattr(applied, outcome[0]).append(outcome[1])


async def _delete(workspace: Workspace, staged: Staged, raw: str, who: dict[str, str]) -> Outcome:
    path = paths.normalize(raw, allow_root=False)
    if path not in staged.files:
        return "it was not given to the shell; not deleted"
    if await workspace.read_text(path) != staged.files[path]:
        return "it changed in the workspace while the command ran; kept"
    await workspace.delete(path, **who)
    return ("deleted", path)


async def _write(workspace: Workspace, staged: Staged, raw: str, text: str, who: dict[str, str]) -> Outcome:
    path = paths.normalize(raw, allow_root=False)
    current = await workspace.read_text(path)
    kind: Literal["created", "modified"] = "created"
    if path in staged.files:
        if current != staged.files[path]:
            return "it changed in the workspace while the command ran; the command's version was not kept"
        kind = "modified"
    elif path in staged.existing:
        return (
            "it was not given to the shell (binary or over the size budget), so the command did not see "
            "its content; not overwritten"
        )
    elif current is not None:
        return "it was created in the workspace while the command ran; the command's version was not kept"
    change = await workspace.write(path, text, **who)
    return (kind, path) if change.commit is not None else None


async def _folder(workspace: Workspace, raw: str, who: dict[str, str]) -> Outcome:
    path = paths.normalize(raw, allow_root=False)
    change = await workspace.create_folder(path, **who)
    return ("folders", path) if change.commit is not None else None
