"""The file operations: write, create, edit, delete, move and create_folder, each as ONE change.

Each one checks its arguments, then describes the wanted state of the entries it touches on a Plan of
the current heads and commits it through a `Committer` (see `committer`). What the model did wrong
(a missing file, a folder where a file is wanted, a name taken) is a WorkspaceError with a message fit
for it; nothing is stored then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from agentlite.workspace import paths
from agentlite.workspace.change_plan import Plan, Target
from agentlite.workspace.committer import Committer
from agentlite.workspace.content import to_bytes
from agentlite.workspace.diffs import unified
from agentlite.workspace.edits import EditBlock, apply_blocks
from agentlite.workspace.records import Entry
from agentlite.workspace.results import Change, EditResult
from agentlite.workspace.workspace_errors import (
    AlreadyExists,
    InvalidArgument,
    InvalidPath,
    NotAFile,
    NotFound,
)


async def put(
    committer: Committer,
    path: str,
    content: str | bytes,
    turn: str | None,
    author: str | None,
    *,
    create_only: bool,
) -> Change:
    """Create or replace a file (parent folders are created); AlreadyExists with `create_only`."""
    target = paths.writable(path, allow_root=False)
    data = to_bytes(content)
    committer.check_size(target, len(data))

    async def build(plan: Plan) -> None:
        current = plan.tree.at(target)
        if current is not None and current.kind == "dir":
            raise NotAFile(f"{target} is a folder; choose a file path", path=target)
        if current is not None and create_only:
            raise AlreadyExists(
                f"{target} already exists; use write_file to replace it or edit_file to change it",
                path=target,
            )
        eid = current.id if current is not None else plan.new_entry(target, "file")
        plan.set(eid, replace(plan.content(data), path=target))

    return await committer.mutate(build, turn, author)


def edit_blocks(
    original_code: str | None, new_code: str | None, blocks: Sequence[Any] | None
) -> list[EditBlock]:
    """The blocks of one edit: the list given, or the one original/new pair."""
    if blocks is None:
        if original_code is None or new_code is None:
            raise InvalidArgument("edit needs originalCode and newCode (or a list of blocks)")
        blocks = [EditBlock(original_code, new_code)]
    items = [EditBlock.coerce(block) for block in blocks]
    if not items:
        raise InvalidArgument("edit needs at least one block")
    return items


async def edit(
    committer: Committer, path: str, items: list[EditBlock], turn: str | None, author: str | None
) -> EditResult:
    """Apply edit blocks to a text file (see `edits` for the matching rules)."""
    target = paths.writable(path, allow_root=False)
    outcome: dict[str, Any] = {}

    async def build(plan: Plan) -> None:
        entry = plan.tree.file_at(target)
        old = await committer.text_of(entry)
        if old is None:
            raise NotAFile(f"{target} is a binary file; it cannot be edited as text", path=target)
        new, results = apply_blocks(old, items)
        outcome.update(old=old, new=new, results=results)
        if new != old:
            data = new.encode("utf-8")
            committer.check_size(target, len(data))
            plan.set(entry.id, replace(plan.content(data), path=target, op="edit"))

    change = await committer.mutate(build, turn, author)
    text = ""
    if change.commit is not None:
        text = unified(outcome["old"], outcome["new"], f"a{target}", f"b{target}")
    return EditResult(target, outcome["results"], change if change.commit else None, text)


async def delete(committer: Committer, path: str, turn: str | None, author: str | None) -> Change:
    """Delete a file, or a folder with everything in it."""
    target = paths.normalize(path)
    if target == paths.ROOT:
        raise InvalidPath("the workspace root cannot be deleted; delete the files in it instead")

    async def build(plan: Plan) -> None:
        entry = plan.tree.at(target)
        if entry is None:
            raise NotFound(f"{target} does not exist", path=target)
        plan.set(entry.id, Target(None, entry.kind))
        for below in plan.tree.below(target) if entry.kind == "dir" else []:
            plan.set(below.id, Target(None, below.kind))

    return await committer.mutate(build, turn, author)


async def move(
    committer: Committer,
    source: str,
    destination: str,
    into: bool | None,
    turn: str | None,
    author: str | None,
) -> Change:
    """Move a file or folder with its history. `into`: True moves into the folder `destination`,
    False never, None when it is a folder (or written with a trailing `/`)."""
    src = paths.normalize(source, allow_root=False)
    dst = paths.normalize(destination)

    async def build(plan: Plan) -> None:
        entry = plan.tree.at(src)
        if entry is None:
            raise NotFound(f"{src} does not exist", path=src)
        inside = into if into is not None else destination.rstrip().endswith("/") or plan.tree.is_dir(dst)
        final = paths.join(dst, paths.name_of(src)) if inside and dst != src else dst
        if final == src:
            return
        paths.writable(final)
        if entry.kind == "dir" and paths.is_within(final, src):
            raise InvalidPath(f"cannot move the folder {src} into itself ({final})", path=final)
        if plan.tree.at(final) is not None:
            raise AlreadyExists(f"{final} already exists; delete it first or pick another name", path=final)
        plan.set(entry.id, _keep(entry, final))
        for below in plan.tree.below(src) if entry.kind == "dir" else []:
            plan.set(below.id, _keep(below, paths.rebase(below.path, src, final)))

    return await committer.mutate(build, turn, author)


async def create_folder(committer: Committer, path: str, turn: str | None, author: str | None) -> Change:
    """Create a folder and its parents; nothing happens when it exists already."""
    target = paths.writable(path, allow_root=False)

    async def build(plan: Plan) -> None:
        entry = plan.tree.at(target)
        if entry is not None and entry.kind == "file":
            raise AlreadyExists(f"{target} is a file; a folder cannot have the same path", path=target)
        if entry is None:
            plan.set(plan.new_entry(target, "dir"), Target(target, "dir"))

    return await committer.mutate(build, turn, author)


def _keep(entry: Entry, path: str) -> Target:
    """A target that keeps the entry's content and moves it to `path`."""
    return Target(path, entry.kind, entry.sha256, entry.size, entry.binary)


FileState = tuple[int | None, str | None, bytes | None]  # (entry id or None for a new file, path, content)


async def set_files(
    committer: Committer, states: Sequence[FileState], note: str | None, turn: str | None, author: str | None
) -> Change:
    """Several files set to given states as ONE change: written (moved when the path differs), created
    (no entry id), or deleted (no path). What a stage's kept changes become (agentlite.stage)."""

    async def build(plan: Plan) -> None:
        plan.note = note
        for eid, path, data in states:
            if path is None or data is None:
                if eid is not None:
                    plan.set(eid, Target(None, "file"))
                continue
            committer.check_size(path, len(data))
            target = paths.writable(path, allow_root=False)
            plan.set(
                eid if eid is not None else plan.new_entry(target, "file"),
                replace(plan.content(data), path=target),
            )

    return await committer.mutate(build, turn, author)
