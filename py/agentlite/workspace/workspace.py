"""The Workspace: a versioned virtual file system over a StorageBackend (the public API).

Paths are normalised by `paths` (a path without a leading `/` is relative to the root). Each mutating
method takes keyword arguments `turn=` and `author=` or uses the current turn context (`turns`), commits
ONE atomic change, notifies the listeners and returns a `Change`. History only grows: undo and restore
are new changes (`timeline`). Errors are `WorkspaceError` subclasses with messages fit for a model.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from agentlite.workspace import archive, changeset, integrity, paths, timeline
from agentlite.workspace import turns as turn_context
from agentlite.workspace.change_plan import Plan, Target
from agentlite.workspace.content import guess_type, to_bytes
from agentlite.workspace.diffs import Hunk, unified
from agentlite.workspace.edits import EditBlock, apply_blocks
from agentlite.workspace.globs import glob_set
from agentlite.workspace.machinery import DEFAULT_MAX_FILE_SIZE, Listener, WorkspaceCore
from agentlite.workspace.pages import DEFAULT_MAX_LINES, Page, page_of
from agentlite.workspace.records import Entry, Version
from agentlite.workspace.results import Change, EditResult
from agentlite.workspace.search import DEFAULT_MAX_RESULTS, SearchResult, compile_query, search_texts
from agentlite.workspace.storage import StorageBackend
from agentlite.workspace.tree import Tree
from agentlite.workspace.workspace_errors import (
    AlreadyExists,
    InvalidArgument,
    InvalidPath,
    NotAFile,
    NotFound,
)

__all__ = ["DEFAULT_MAX_FILE_SIZE", "Change", "EditResult", "Workspace"]


class Workspace(WorkspaceCore):
    @classmethod
    async def open(
        cls,
        storage: StorageBackend,
        *,
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        clock: Callable[[], float] = time.time,
        listener: Listener | None = None,
    ) -> Workspace:
        workspace = cls(storage, await Tree.load(storage), max_file_size=max_file_size, clock=clock)
        await workspace.blobs.load()
        if listener is not None:
            workspace.add_listener(listener)
        return workspace

    # --- turns and notifications -------------------------------------------------------------------

    def turn(self, turn_id: str, author: str = "agent") -> AbstractContextManager[turn_context.TurnContext]:
        """Group the changes made inside the `with` block (in this asyncio task) into turn `turn_id`."""
        return turn_context.turn_context(turn_id, author)

    # --- reading -----------------------------------------------------------------------------------

    async def stat(self, path: str) -> dict[str, Any] | None:
        await self._ensure_loaded()
        entry = self.tree.at(paths.normalize(path))
        if entry is None:
            return None if path not in ("", "/") else {"path": "/", "kind": "dir"}
        return _stat(entry)

    async def exists(self, path: str) -> bool:
        return await self.stat(path) is not None

    async def list(
        self, dir: str = "/", recursive: bool = False, details: bool = False
    ) -> builtins.list[dict[str, Any]]:
        """Entries in `dir`, sorted by path: `{"path", "kind"}` (plus size, version... with details)."""
        await self._ensure_loaded()
        folder = self._folder(dir)
        found = [e for e in self.tree.below(folder) if recursive or paths.parent(e.path) == folder]
        return [_stat(e) if details else {"path": e.path, "kind": e.kind} for e in found]

    async def read(self, path: str, start_line: int = 1, max_lines: int = DEFAULT_MAX_LINES) -> Page:
        """One page of a file: numbered lines, `total_lines`, and `next_start_line` (None at the end)."""
        entry = await self._file(path)
        text = await self._text_of(entry)
        if text is None:
            data = await self.blobs.read(entry.sha256 or "")
            mime = guess_type(entry.path, data[:16])
            return Page(entry.path, start_line, start_line - 1, 0, [], None, entry.size, True, mime)
        return page_of(entry.path, text, start_line, max_lines, entry.size)

    async def read_text(self, path: str) -> str | None:
        """The whole text of a file, None when there is no file there (binary files decode with U+FFFD)."""
        await self._ensure_loaded()
        entry = self.tree.at(paths.normalize(path, allow_root=False))
        if entry is None:
            return None
        if entry.kind == "dir":
            raise NotAFile(f"{entry.path} is a folder, not a file", path=entry.path)
        text = await self._text_of(entry)
        if text is None:
            return (await self.blobs.read(entry.sha256 or "")).decode("utf-8", "replace")
        return text

    async def read_bytes(self, path: str) -> bytes | None:
        await self._ensure_loaded()
        entry = self.tree.at(paths.normalize(path, allow_root=False))
        if entry is None or entry.kind == "dir" or entry.sha256 is None:
            return None
        return await self.blobs.read(entry.sha256)

    async def search(
        self,
        query: str,
        path: str = "/",
        *,
        regex: bool = False,
        case_sensitive: bool | None = True,
        whole_word: bool = False,
        include: str | Sequence[str] | None = None,
        exclude: str | Sequence[str] | None = None,
        context: int = 0,
        max_results: int = DEFAULT_MAX_RESULTS,
    ) -> SearchResult:
        """Search the text files under `path` (a folder or one file); binary files are skipped.

        Case-sensitive by default; `case_sensitive=None` is smart case (insensitive unless the query has
        a capital letter).
        """
        pattern = compile_query(query, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)
        await self._ensure_loaded()
        root = paths.normalize(path)
        single = self.tree.at(root)
        if single is None and not self.tree.is_dir(root):
            raise NotFound(f"{root} does not exist", path=root)
        chosen = [single] if single is not None and single.kind == "file" else self.tree.below(root)
        wanted, unwanted = glob_set(include), glob_set(exclude)
        files = [
            e
            for e in chosen
            if e.kind == "file"
            and not e.binary
            and (not wanted or wanted.matches(e.path, paths.relative(e.path, root)))
            and not (unwanted and unwanted.matches(e.path, paths.relative(e.path, root)))
        ]
        await self._load_texts(files)
        texts = self._texts
        pairs = ((e.path, texts[e.sha256]) for e in files if e.sha256 in texts)
        return search_texts(pairs, pattern, query=query, context=context, max_results=max_results)

    # --- writing -----------------------------------------------------------------------------------

    async def write(
        self, path: str, content: str | bytes, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Create or replace a file (parent folders are created)."""
        return await self._put(path, content, turn, author, create_only=False)

    async def write_text(
        self, path: str, text: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Testing API: write a text file; a user change unless told otherwise."""
        return await self._put(path, text, turn, author, create_only=False)

    async def create(
        self, path: str, content: str | bytes = "", *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Create a new file; AlreadyExists when anything is at the path."""
        return await self._put(path, content, turn, author, create_only=True)

    async def _put(
        self, path: str, content: str | bytes, turn: str | None, author: str | None, create_only: bool
    ) -> Change:
        target = paths.normalize(path, allow_root=False)
        data = to_bytes(content)
        self._check_size(target, len(data))

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

        return await self._mutate(build, turn, author)

    async def edit(
        self,
        path: str,
        original_code: str | None = None,
        new_code: str | None = None,
        *,
        blocks: Sequence[Any] | None = None,
        turn: str | None = None,
        author: str | None = None,
    ) -> EditResult:
        """Apply edit blocks (or one original/new pair); see `edits` for the matching rules."""
        target = paths.normalize(path, allow_root=False)
        if blocks is None:
            if original_code is None or new_code is None:
                raise InvalidArgument("edit needs originalCode and newCode (or a list of blocks)")
            blocks = [EditBlock(original_code, new_code)]
        items = [EditBlock.coerce(block) for block in blocks]
        if not items:
            raise InvalidArgument("edit needs at least one block")
        outcome: dict[str, Any] = {}

        async def build(plan: Plan) -> None:
            entry = self._file_entry(target)
            old = await self._text_of(entry)
            if old is None:
                raise NotAFile(f"{target} is a binary file; it cannot be edited as text", path=target)
            new, results = apply_blocks(old, items)
            outcome.update(old=old, new=new, results=results)
            if new != old:
                data = new.encode("utf-8")
                self._check_size(target, len(data))
                plan.set(entry.id, replace(plan.content(data), path=target, op="edit"))

        change = await self._mutate(build, turn, author)
        text = ""
        if change.commit is not None:
            text = unified(outcome["old"], outcome["new"], f"a{target}", f"b{target}")
        return EditResult(target, outcome["results"], change if change.commit else None, text)

    async def delete(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
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

        return await self._mutate(build, turn, author)

    async def move(
        self, source: str, destination: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Move a file or folder (with its history). Into an existing folder when `destination` is one."""
        return await self._move(source, destination, None, turn, author)

    async def rename(
        self, path: str, new_name: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        source = paths.normalize(path, allow_root=False)
        paths.check_name(new_name)
        return await self._move(source, paths.join(paths.parent(source), new_name), False, turn, author)

    async def _move(
        self, source: str, destination: str, into: bool | None, turn: str | None, author: str | None
    ) -> Change:
        """`into`: True moves into the folder `destination`, False never, None when it is a folder."""
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
            if entry.kind == "dir" and paths.is_within(final, src):
                raise InvalidPath(f"cannot move the folder {src} into itself ({final})", path=final)
            if plan.tree.at(final) is not None:
                raise AlreadyExists(
                    f"{final} already exists; delete it first or pick another name", path=final
                )
            plan.set(entry.id, _keep(entry, final))
            for below in plan.tree.below(src) if entry.kind == "dir" else []:
                plan.set(below.id, _keep(below, paths.rebase(below.path, src, final)))

        return await self._mutate(build, turn, author)

    async def create_folder(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
        """Create a folder and its parents; nothing happens when it exists already."""
        target = paths.normalize(path, allow_root=False)

        async def build(plan: Plan) -> None:
            entry = plan.tree.at(target)
            if entry is not None and entry.kind == "file":
                raise AlreadyExists(f"{target} is a file; a folder cannot have the same path", path=target)
            if entry is None:
                plan.set(plan.new_entry(target, "dir"), Target(target, "dir"))

        return await self._mutate(build, turn, author)

    async def apply_changes(
        self, changes: changeset.ChangeSet, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Apply changes made on a copy of some files (the shell) as ONE change; see `changeset`."""
        return await changeset.apply(self, changes, turn, author)

    # --- history (see timeline for the logic) ------------------------------------------------------

    async def history(self, path: str) -> builtins.list[dict[str, Any]]:
        """Every version of the file or folder at `path` (or deleted there last), oldest first."""
        return [v.to_dict() for v in await self.versions(path)]

    async def versions(self, path: str) -> builtins.list[Version]:
        await self._ensure_loaded()
        entry = self.tree.last_at(paths.normalize(path))
        return [] if entry is None else await timeline.versions_of(self, entry.id)

    async def turns(self) -> builtins.list[dict[str, Any]]:
        """Every turn, oldest first: `{turn, author, time, first, last, commits}`."""
        await self._ensure_loaded()
        return [t.to_dict() for t in sorted(self.tree.turns.values(), key=lambda t: t.first)]

    async def read_version(self, path: str, version: int) -> bytes | None:
        return await timeline.read_version(self, path, version)

    async def diff(self, path: str, old_version: int | None = None, new_version: int | None = None) -> str:
        return await timeline.diff(self, path, old_version, new_version)

    async def hunks(self, path: str, version: int) -> builtins.list[Hunk]:
        return await timeline.hunks_of(self, path, version)

    async def undo(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo(self, path, turn, author)

    async def revert_hunk(
        self, path: str, version: int, hunk_index: int, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        return await timeline.revert_hunk(self, path, version, hunk_index, turn, author)

    async def undo_commit(self, number: int, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo_commit(self, number, turn, author)

    async def undo_turn(self, turn_id: str, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo_turn(self, turn_id, turn, author)

    async def restore_before(
        self, turn_id: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        return await timeline.restore_before(self, turn_id, turn, author)

    async def check(self) -> builtins.list[str]:
        """Every inconsistency in what is stored (heads, version numbers, contents); [] when sound."""
        return await integrity.check(self)

    # --- archive -----------------------------------------------------------------------------------

    async def export_zip(self, history: bool = False) -> bytes:
        """A zip of the current files (`files/...`), with the full history too when `history`."""
        return await archive.export_zip(self, history)

    async def import_zip(
        self,
        data: bytes,
        *,
        history: bool | None = None,
        replace_all: bool = False,
        turn: str | None = None,
        author: str | None = None,
    ) -> Change:
        """Import a zip. `history=None`: restore its history when it has one and this workspace is empty,
        else import its files as ONE change in one turn (`replace_all` also deletes what the zip lacks).
        `history=True` insists on the history (the workspace must be empty: `clear()` first)."""
        return await archive.import_zip(self, data, history, replace_all, turn, author)

    async def clear(self) -> None:
        """Erase everything, history included (not undoable): used before importing a full history."""
        async with self._lock, self.storage.lock():
            gone = sorted(self.tree.live)
            await archive.erase(self)
            self._notify({"type": "clear", "commit": None, "turn": None, "author": None, "paths": gone})


def _keep(entry: Entry, path: str) -> Target:
    """A target that keeps the entry's content and moves it to `path`."""
    return Target(path, entry.kind, entry.sha256, entry.size, entry.binary)


def _stat(entry: Entry) -> dict[str, Any]:
    info: dict[str, Any] = {"path": entry.path, "kind": entry.kind, "version": entry.version}
    if entry.kind == "file":
        info.update(size=entry.size, binary=entry.binary, sha256=entry.sha256)
    return info
