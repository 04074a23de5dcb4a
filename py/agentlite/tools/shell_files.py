"""Which workspace files a shell command gets, and how its file changes come back into the workspace.

The shell runs in a sandbox over an in-memory copy of the files it is given (text only). The rule:
every text file is given when they all fit in `shell_files_bytes` (files over `shell_file_bytes` are
left out); otherwise the files the command mentions come first (a path, a folder, a glob such as
`src/*.ts`), then the others, smallest first, while they fit. Every folder is given, so `ls` and
`find` see the whole tree.

Back from the run come `changed` (path -> text), `deleted`, `created_dirs` and `deleted_dirs`. They are
applied as ONE recorded change (`Workspace.apply_changes`) under the current turn, by `shell`: one undo
of it, or of the turn, takes the whole run back. A file is not overwritten when the command could not
have seen its content: when it changed in the workspace while the command ran, or when it was not
given (binary, or over the budget) — a `>>` append would otherwise replace it whole. An AGENTS.md is
never changed by the shell (it holds the project instructions, which the user approves: docs/agents-md.md),
nor is anything in an Agent Skill's folder (docs/skills.md); the model is told to use the file tools,
which ask. A removed folder
that still holds files the shell was not given is kept. What tools write for themselves (`__pycache__`,
`.pytest_cache`) never comes back: a run's files and folders there are dropped (`is_cache`).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.tools.context import ToolSettings
from agentlite.workspace import ChangeSet, Workspace, WorkspaceError, paths
from agentlite.workspace.workspace_errors import size_text

_TOKENS = re.compile(r"[^\s;|&<>()'\"`=,]+")
_GLOB = re.compile(r"[*?\[]")
SHOWN_LEFT_OUT = 10
# What of a command is matched against every file: the first words and globs, and only short globs,
# so that a long command (a model's, thousands of globs) cannot hold the worker. More files than fit
# are chosen by size anyway.
MAX_WORDS = 200
MAX_GLOBS = 32
MAX_GLOB_CHARS = 256
NOTE_CHARS = 120  # of the command, recorded with the change
INSTRUCTIONS_KEPT = (
    "AGENTS.md holds the project instructions, which go into every request: the shell does not change them "
    "(write_file or edit_file do, after the user approves)"
)
SKILL_KEPT = (
    "an Agent Skill's files are instructions the model follows: the shell does not change them "
    "(the file tools do, after the user approves)"
)
NOT_SEEN = (
    "it was not given to the shell (binary or over the size budget), so the command did not see its "
    "content; not overwritten"
)
# Folders that tools fill for themselves (bytecode, pytest's cache): never written back into the workspace.
CACHE_FOLDERS = frozenset({"__pycache__", ".pytest_cache"})
_LISTS = {  # (kind, op) of a recorded version -> the Applied list that reports it
    ("file", "create"): "created",
    ("file", "write"): "modified",
    ("file", "delete"): "deleted",
    ("dir", "create"): "folders",
    ("dir", "delete"): "removed_folders",
}


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
    """What the run changed in the workspace: ONE commit (None when nothing changed)."""

    commit: int | None = None
    created: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    removed_folders: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why it was not applied)

    def to_dict(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "created": self.created,
            "modified": self.modified,
            "deleted": self.deleted,
            "folders": self.folders,
            "removed_folders": self.removed_folders,
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
                ("removed folders", self.removed_folders),
            )
            if found
        ]
        recorded = "Files changed by the command (recorded as one change, undoable): "
        lines = [recorded + "; ".join(parts)] if parts else []
        lines += [f"Not applied: {path}: {reason}" for path, reason in self.skipped]
        return "\n".join(lines)


def mentioned(command: str, files: list[str], dirs: set[str]) -> list[str]:
    """The files a command names: a path, a folder (everything below it), or a glob; relative to `/`."""
    found: list[str] = []
    globs = 0
    for token in list(dict.fromkeys(_TOKENS.findall(command)))[:MAX_WORDS]:
        token = token.removeprefix("./").rstrip("/") or "/"
        if _GLOB.search(token):
            globs += 1
            if globs <= MAX_GLOBS and len(token) <= MAX_GLOB_CHARS:
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
    workspace: Workspace, staged: Staged, result: dict[str, Any], command: str, turn: str, author: str
) -> Applied:
    """Record the run's file changes as ONE change (one undo takes them all back).

    A storage failure raises (StorageError): then nothing of the run was recorded.
    """
    applied = Applied()
    changes = ChangeSet(during="while the command ran", note=_note(command))
    for path in _paths(applied, result.get("deleted") or []):
        if kept := _kept(path):
            applied.skipped.append((path, kept))
        elif path in staged.files:
            changes.deletes.append(path)
        else:
            applied.skipped.append((path, "it was not given to the shell; not deleted"))
    changed = result.get("changed") or {}
    for raw, text in changed.items():
        for path in _paths(applied, [raw]):
            if is_cache(path):
                continue
            if kept := _kept(path):
                applied.skipped.append((path, kept))
            elif path in staged.existing and path not in staged.files:
                applied.skipped.append((path, NOT_SEEN))
            else:
                changes.writes[path] = str(text)
    changes.folders = [
        p for p in _paths(applied, result.get("created_dirs") or []) if not is_cache(p) and not _kept(p)
    ]
    changes.removed_folders = [p for p in _paths(applied, result.get("deleted_dirs") or []) if not _kept(p)]
    changes.seen = {path: staged.files.get(path) for path in [*changes.deletes, *changes.writes]}
    if not (changes.deletes or changes.writes or changes.folders or changes.removed_folders):
        return applied
    change = await workspace.apply_changes(changes, turn=turn, author=author)
    applied.commit = change.commit
    for version in change.versions:
        getattr(applied, _LISTS[version.kind, version.op]).append(version.path)
    applied.skipped += [(skip.path, skip.reason) for skip in change.skipped]
    return applied


def _kept(path: str) -> str | None:
    """Why the shell may not change `path` (an AGENTS.md, a skill's file or folder), or None."""
    if paths.is_instructions(path):
        return INSTRUCTIONS_KEPT
    return SKILL_KEPT if paths.is_skill(path) else None


def is_cache(path: str) -> bool:
    """Whether a workspace path lies in a folder that tools fill for themselves (CACHE_FOLDERS)."""
    return any(part in CACHE_FOLDERS for part in path.split("/"))


def _paths(applied: Applied, raws: list[Any]) -> list[str]:
    """The normalised paths; an invalid one is noted as skipped (the sandbox's answer is untrusted)."""
    found = []
    for raw in raws:
        try:
            found.append(paths.normalize(str(raw), allow_root=False))
        except WorkspaceError as error:
            applied.skipped.append((str(raw), error.message))
    return found


def _note(command: str) -> str:
    line = command.strip().splitlines()[0] if command.strip() else ""
    return "shell: " + (line if len(line) <= NOTE_CHARS else line[: NOTE_CHARS - 3] + "...")
