"""File changes made elsewhere on a copy of some files (the shell's sandbox), applied as ONE change.

Whoever made them says what it did: files written, files deleted, folders created, folders removed, and
what each file it changed held when the copy was taken (`seen`: its text, or None when it did not
exist there). Under the workspace lock, a path whose content is no longer what was seen was changed in
the workspace meanwhile: it is kept as it is and reported as skipped, never overwritten. A problem with
one path (an invalid name, a file where a folder is needed, a file over the size limit, a removed
folder that still holds files the copy never had) skips that path only. Everything else is ONE commit,
so one undo takes it all back; a storage failure stores none of it and raises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from agentlite.workspace import paths
from agentlite.workspace.change_plan import Plan, Target
from agentlite.workspace.committer import Committer
from agentlite.workspace.content import sha256, to_bytes
from agentlite.workspace.records import Entry
from agentlite.workspace.results import Change
from agentlite.workspace.workspace_errors import WorkspaceError


@dataclass
class ChangeSet:
    writes: dict[str, str | bytes] = field(default_factory=dict)  # path -> new content
    deletes: list[str] = field(default_factory=list)  # files
    folders: list[str] = field(default_factory=list)  # created
    removed_folders: list[str] = field(default_factory=list)
    seen: dict[str, str | None] = field(default_factory=dict)  # path -> text in the copy (None: absent)
    during: str = "meanwhile"  # how skip reasons name the time the copy was away: "while the command ran"
    note: str | None = None  # recorded with each version ("shell: sed -i ...")


async def apply(committer: Committer, changes: ChangeSet, turn: str | None, author: str | None) -> Change:
    async def build(plan: Plan) -> None:
        plan.note = changes.note
        for raw in sorted(changes.removed_folders, reverse=True):
            _guarded(plan, raw, lambda path: _remove_folder(plan, path))
        for raw in sorted(changes.deletes):
            _guarded(plan, raw, lambda path: _delete(plan, changes, path))
        for raw, content in sorted(changes.writes.items()):
            _guarded(plan, raw, functools.partial(_write, committer, plan, changes, content=content))
        for raw in sorted(changes.folders):
            _guarded(plan, raw, lambda path: _folder(plan, path))

    return await committer.mutate(build, turn, author, strict=False)


def _guarded(plan: Plan, raw: str, step: Callable[[str], str | None]) -> None:
    """Run one path's step; a WorkspaceError skips that path (with its message) and nothing else."""
    try:
        reason = step(paths.normalize(raw, allow_root=False))
    except WorkspaceError as error:
        reason = error.message
    if reason:
        plan.skip(raw, reason)


def _current(plan: Plan, path: str) -> Entry | None:
    """The entry at `path` once this change is made, as far as it is known yet (removed ones are gone)."""
    entry = plan.tree.at(path)
    target = plan.targets.get(entry.id) if entry is not None else None
    return None if target is not None and target.path is None else entry


def _unchanged(changes: ChangeSet, entry: Entry | None, path: str) -> bool:
    """Whether `path` still holds what the copy started from."""
    seen = changes.seen.get(path)
    if seen is None or entry is None:
        return seen is None and entry is None
    return entry.kind == "file" and entry.sha256 == sha256(to_bytes(seen))


def _delete(plan: Plan, changes: ChangeSet, path: str) -> str | None:
    entry = plan.tree.at(path)
    if entry is not None and entry.kind == "dir":
        return f"{path} is a folder in the workspace; not deleted"
    if not _unchanged(changes, entry, path):
        return f"it changed in the workspace {changes.during}; kept"
    if entry is not None:
        plan.set(entry.id, Target(None, "file"))
    return None


def _write(
    committer: Committer, plan: Plan, changes: ChangeSet, path: str, *, content: str | bytes
) -> str | None:
    paths.writable(path)
    entry = _current(plan, path)
    if entry is not None and entry.kind == "dir":
        return f"{path} is a folder in the workspace; it was not replaced by a file"
    if not _unchanged(changes, entry, path):
        when = "changed" if changes.seen.get(path) is not None else "created"
        return f"it was {when} in the workspace {changes.during}; this version of it was not kept"
    data = to_bytes(content)
    committer.check_size(path, len(data))
    eid = entry.id if entry is not None else plan.new_entry(path, "file")
    plan.set(eid, replace(plan.content(data), path=path))
    return None


def _folder(plan: Plan, path: str) -> str | None:
    paths.writable(path)
    entry = _current(plan, path)
    if entry is None:
        plan.set(plan.new_entry(path, "dir"), Target(path, "dir"))
    elif entry.kind == "file":
        return f"{path} is a file in the workspace; a folder cannot have the same path"
    return None


def _remove_folder(plan: Plan, path: str) -> str | None:
    """Remove the folder itself; the plan refuses it when anything not removed is left in it."""
    entry = plan.tree.at(path)
    if entry is not None and entry.kind == "dir":
        plan.set(entry.id, Target(None, "dir"))
    return None
