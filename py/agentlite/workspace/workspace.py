"""The Workspace: a versioned virtual file system over a StorageBackend (the public API).

Paths are normalised by `paths` (a path without a leading `/` is relative to the root). Each mutating
method takes keyword arguments `turn=` and `author=` (`turns`), commits ONE atomic change, notifies the
listeners and returns a `Change`. History only grows: undo and restore are new changes (`timeline`).
Errors are `WorkspaceError` subclasses with messages fit for a model. The work itself is done by the
modules beside this one, through the `Machinery` that holds the state (see `committer`).
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Sequence
from typing import Any

from agentlite.workspace import archive, changeset, integrity, operations, paths, timeline
from agentlite.workspace.content import guess_type
from agentlite.workspace.diffs import Hunk
from agentlite.workspace.machinery import DEFAULT_MAX_FILE_SIZE, Listener, Machinery
from agentlite.workspace.pages import DEFAULT_MAX_LINES, Page, page_of
from agentlite.workspace.records import Entry, Version
from agentlite.workspace.results import Change, EditResult
from agentlite.workspace.search import (
    DEFAULT_MAX_RESULTS,
    Budget,
    SearchResult,
    compile_query,
    files_to_search,
    search_texts,
)
from agentlite.workspace.storage import StorageBackend
from agentlite.workspace.tree import Tree
from agentlite.workspace.workspace_errors import NotADirectory, NotAFile, NotFound

__all__ = ["DEFAULT_MAX_FILE_SIZE", "Change", "EditResult", "Workspace"]


class Workspace:
    def __init__(self, machinery: Machinery) -> None:
        self._machinery = machinery

    @classmethod
    async def open(
        cls,
        storage: StorageBackend,
        *,
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        clock: Callable[[], float] = time.time,
        listener: Listener | None = None,
    ) -> Workspace:
        workspace = cls(await Machinery.load(storage, max_file_size=max_file_size, clock=clock))
        if listener is not None:
            workspace.add_listener(listener)
        return workspace

    @classmethod
    def on_first_use(
        cls, storage: StorageBackend, *, max_file_size: int = DEFAULT_MAX_FILE_SIZE
    ) -> Workspace:
        """A workspace whose state is read from `storage` when it is first used (a chat's stage, made
        when a turn begins, which cannot wait)."""
        machinery = Machinery(storage, Tree(), max_file_size=max_file_size)
        machinery.mark_stale()
        return cls(machinery)

    # --- state and notifications -------------------------------------------------------------------

    @property
    def storage(self) -> StorageBackend:
        return self._machinery.storage

    @property
    def tree(self) -> Tree:
        """The heads as this tab last saw them (read-only; `refresh` reloads them)."""
        return self._machinery.tree

    @property
    def max_file_size(self) -> int:
        return self._machinery.max_file_size

    @max_file_size.setter
    def max_file_size(self, size: int) -> None:
        self._machinery.max_file_size = size

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(change_dict)` after every committed change; returns a function that removes it."""
        return self._machinery.add_listener(listener)

    async def refresh(self) -> None:
        """Reload from storage (another tab changed the workspace)."""
        await self._machinery.refresh()

    def mark_stale(self) -> None:
        """Read the state from storage again before the next use (what lies under a stage changed)."""
        self._machinery.mark_stale()

    # --- reading -----------------------------------------------------------------------------------

    async def stat(self, path: str) -> dict[str, Any] | None:
        entry = (await self._machinery.heads()).at(paths.normalize(path))
        if entry is None:
            return None if path not in ("", "/") else {"path": "/", "kind": "dir"}
        return _stat(entry)

    async def exists(self, path: str) -> bool:
        return await self.stat(path) is not None

    async def list(
        self, dir: str = "/", recursive: bool = False, details: bool = False
    ) -> builtins.list[dict[str, Any]]:
        """Entries in `dir`, sorted by path: `{"path", "kind"}` (plus size, version... with details)."""
        tree = await self._machinery.heads()
        folder = _folder(tree, dir)
        found = [e for e in tree.below(folder) if recursive or paths.parent(e.path) == folder]
        return [_stat(e) if details else {"path": e.path, "kind": e.kind} for e in found]

    async def read(self, path: str, start_line: int = 1, max_lines: int = DEFAULT_MAX_LINES) -> Page:
        """One page of a file: numbered lines, `total_lines`, and `next_start_line` (None at the end)."""
        entry = (await self._machinery.heads()).file_at(paths.normalize(path, allow_root=False))
        text = await self._machinery.text_of(entry)
        if text is None:
            data = await self._content(entry)
            mime = guess_type(entry.path, data[:16])
            return Page(entry.path, start_line, start_line - 1, 0, [], None, entry.size, True, mime)
        return page_of(entry.path, text, start_line, max_lines, entry.size)

    async def read_text(self, path: str) -> str | None:
        """The whole text of a file, None when there is no file there (binary files decode with U+FFFD)."""
        entry = (await self._machinery.heads()).at(paths.normalize(path, allow_root=False))
        if entry is None:
            return None
        if entry.kind == "dir":
            raise NotAFile(f"{entry.path} is a folder, not a file", path=entry.path)
        text = await self._machinery.text_of(entry)
        if text is None:
            return (await self._content(entry)).decode("utf-8", "replace")
        return text

    async def read_bytes(self, path: str) -> bytes | None:
        entry = (await self._machinery.heads()).at(paths.normalize(path, allow_root=False))
        if entry is None or entry.kind == "dir" or entry.sha256 is None:
            return None
        return await self._content(entry)

    async def _content(self, entry: Entry) -> bytes:
        return await self._machinery.blobs.read(entry.sha256 or "")

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
        budget: Budget | None = None,
    ) -> SearchResult:
        """Search the text files under `path` (a folder or one file); binary files are skipped.

        Case-sensitive by default; `case_sensitive=None` is smart case (insensitive unless the query has
        a capital letter). A regex is checked (BadPattern for one that could run for hours) and searched
        within `budget` (`query.Budget`: the event loop is handed back every 50 ms, the search stops
        after 5 s); a search that runs out says so in `stopped`.
        """
        pattern = compile_query(query, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word)
        files = files_to_search(await self._machinery.heads(), path, include, exclude)
        texts = await self._machinery.texts_of(files)
        pairs = ((e.path, texts[e.sha256]) for e in files if e.sha256 in texts)
        return await search_texts(
            pairs, pattern, query=query, context=context, max_results=max_results, budget=budget
        )

    # --- writing -----------------------------------------------------------------------------------

    async def write(
        self, path: str, content: str | bytes, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Create or replace a file (parent folders are created)."""
        return await operations.put(self._machinery, path, content, turn, author, create_only=False)

    async def write_text(
        self, path: str, text: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Testing API: write a text file; a user change unless told otherwise."""
        return await operations.put(self._machinery, path, text, turn, author, create_only=False)

    async def create(
        self, path: str, content: str | bytes = "", *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Create a new file; AlreadyExists when anything is at the path."""
        return await operations.put(self._machinery, path, content, turn, author, create_only=True)

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
        items = operations.edit_blocks(original_code, new_code, blocks)
        return await operations.edit(self._machinery, target, items, turn, author)

    async def delete(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
        """Delete a file, or a folder with everything in it."""
        return await operations.delete(self._machinery, path, turn, author)

    async def move(
        self, source: str, destination: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Move a file or folder (with its history). Into an existing folder when `destination` is one."""
        return await operations.move(self._machinery, source, destination, None, turn, author)

    async def rename(
        self, path: str, new_name: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        source = paths.normalize(path, allow_root=False)
        paths.check_new_name(new_name)
        destination = paths.join(paths.parent(source), new_name)
        return await operations.move(self._machinery, source, destination, False, turn, author)

    async def create_folder(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
        """Create a folder and its parents; nothing happens when it exists already."""
        return await operations.create_folder(self._machinery, path, turn, author)

    async def set_files(
        self,
        states: Sequence[operations.FileState],
        *,
        note: str | None = None,
        turn: str | None = None,
        author: str | None = None,
    ) -> Change:
        """Set files to given states (entry id or None, path or None, content) as ONE change."""
        return await operations.set_files(self._machinery, states, note, turn, author)

    async def apply_changes(
        self, changes: changeset.ChangeSet, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        """Apply changes made on a copy of some files (the shell) as ONE change; see `changeset`."""
        return await changeset.apply(self._machinery, changes, turn, author)

    # --- history (see timeline for the logic) ------------------------------------------------------

    async def history(self, path: str) -> builtins.list[dict[str, Any]]:
        """Every version of the file or folder at `path` (or deleted there last), oldest first."""
        return [v.to_dict() for v in await self.versions(path)]

    async def versions(self, path: str) -> builtins.list[Version]:
        entry = (await self._machinery.heads()).last_at(paths.normalize(path))
        return [] if entry is None else await timeline.versions_of(self._machinery, entry.id)

    async def turns(self) -> builtins.list[dict[str, Any]]:
        """Every turn, oldest first: `{turn, author, time, first, last, commits}`."""
        tree = await self._machinery.heads()
        return [t.to_dict() for t in sorted(tree.turns.values(), key=lambda t: t.first)]

    async def read_version(self, path: str, version: int) -> bytes | None:
        return await timeline.read_version(self._machinery, path, version)

    async def diff(self, path: str, old_version: int | None = None, new_version: int | None = None) -> str:
        return await timeline.diff(self._machinery, path, old_version, new_version)

    async def hunks(self, path: str, version: int) -> builtins.list[Hunk]:
        return await timeline.hunks_of(self._machinery, path, version)

    async def undo(self, path: str, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo(self._machinery, path, turn, author)

    async def revert_hunk(
        self, path: str, version: int, hunk_index: int, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        return await timeline.revert_hunk(self._machinery, path, version, hunk_index, turn, author)

    async def undo_commit(self, number: int, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo_commit(self._machinery, number, turn, author)

    async def undo_turn(self, turn_id: str, *, turn: str | None = None, author: str | None = None) -> Change:
        return await timeline.undo_turn(self._machinery, turn_id, turn, author)

    async def restore_before(
        self, turn_id: str, *, turn: str | None = None, author: str | None = None
    ) -> Change:
        return await timeline.restore_before(self._machinery, turn_id, turn, author)

    async def check(self, contents: bool = True) -> builtins.list[str]:
        """Every inconsistency in what is stored (heads, version numbers, contents); [] when sound.
        `contents=False`: contents only present, not read (they were verified just before)."""
        return await integrity.check(self._machinery, contents)

    # --- archive -----------------------------------------------------------------------------------

    async def export_zip(self, history: bool = False) -> bytes:
        """A zip of the current files (`files/...`), with the full history too when `history`."""
        return await archive.export_zip(self._machinery, history)

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
        `history=True` insists on the history: the workspace must be empty, or with `replace_all` the
        history replaces everything it holds in the same commit, once the whole archive passed its checks.
        A zip of a git working copy imports its HEAD commit's files as ONE change (dulwich, loaded here)."""
        if not history and archive.holds_git(data):
            from agentlite.workspace import git_import  # dulwich loads on first use

            return await git_import.import_git(self._machinery, data, replace_all, turn, author)
        return await archive.import_zip(self._machinery, data, history, replace_all, turn, author)

    async def import_files(
        self,
        files: dict[str, bytes],
        folders: Sequence[str] = (),
        *,
        deleted: Sequence[str] = (),
        turn: str | None = None,
        author: str | None = None,
    ) -> Change:
        """Add files and folders (a local folder's, read by the page) as ONE change in one turn; the files
        `deleted` (gone from an opened folder) are deleted in that same change."""
        for path, data in files.items():
            self._machinery.check_size(path, len(data))
        named = {paths.normalize(p): data for p, data in files.items()}
        made = {paths.normalize(p) for p in folders}
        gone = frozenset(paths.normalize(p) for p in deleted)
        return await archive.import_files(self._machinery, made, named, False, turn, author, gone)

    async def export_git(self, notes: dict[str, str] | None = None) -> tuple[bytes, int]:
        """The workspace as a git repository: a zip of the files with `.git/`, one commit per recorded turn
        that changed files (`notes`: a commit message by turn id); also how many commits it holds.

        dulwich is imported here, on first use: the browser loads it only when the user asks for this."""
        from agentlite.workspace import git_export  # dulwich loads on first use

        return await git_export.export_git(self._machinery, notes or {})

    async def clear(self) -> None:
        """Erase everything, history included (not undoable): used before importing a full history."""
        await self._machinery.erase()


def _folder(tree: Tree, dir: str) -> str:
    folder = paths.normalize(dir)
    if not tree.is_dir(folder):
        if tree.at(folder) is not None:
            raise NotADirectory(f"{folder} is a file, not a folder", path=folder)
        raise NotFound(f"the folder {folder} does not exist", path=folder)
    return folder


def _stat(entry: Entry) -> dict[str, Any]:
    info: dict[str, Any] = {"path": entry.path, "kind": entry.kind, "version": entry.version}
    if entry.kind == "file":
        info.update(size=entry.size, binary=entry.binary, sha256=entry.sha256)
    return info
