"""The machinery under the Workspace: memory state, locks, and committing a Plan as ONE batch.

Reads are served from memory (the heads and the decoded text of current files are cached); every mutation
goes through `mutate`: under a lock (this tab's and every tab's), it checks the stored state is the one in
memory, lets the operation describe the wanted result on a Plan, and commits the whole change as ONE batch.
Memory is updated only after the batch is stored, so a failed commit changes nothing, and after any
storage failure the next call reloads from storage first. `Machinery` is the `committer.Committer` the
workspace's operations work through.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from agentlite.limits import FILE_BYTES
from agentlite.workspace.blobs import BlobStore
from agentlite.workspace.change_plan import Plan
from agentlite.workspace.committer import Build
from agentlite.workspace.content import decode_text
from agentlite.workspace.records import Entry
from agentlite.workspace.results import Change
from agentlite.workspace.storage import WORKSPACE_STORES, Batch, StorageBackend
from agentlite.workspace.tree import Tree
from agentlite.workspace.turns import Attribution, attribution
from agentlite.workspace.workspace_errors import (
    FileTooLarge,
    InvalidArgument,
    StaleState,
    StorageError,
    WorkspaceError,
    size_text,
)

log = logging.getLogger(__name__)
DEFAULT_MAX_FILE_SIZE = FILE_BYTES
Listener = Callable[[dict[str, Any]], Any]


class Machinery:
    def __init__(
        self,
        storage: StorageBackend,
        tree: Tree,
        *,
        max_file_size: int = DEFAULT_MAX_FILE_SIZE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.max_file_size = max_file_size
        self.tree = tree
        self.blobs = BlobStore(storage)
        self._clock = clock
        self._texts: dict[str, str] = {}  # sha256 -> decoded text of current text files
        self._listeners: list[Listener] = []
        self._lock = asyncio.Lock()
        self._dirty = False

    @classmethod
    async def load(
        cls, storage: StorageBackend, *, max_file_size: int, clock: Callable[[], float]
    ) -> Machinery:
        machinery = cls(storage, await Tree.load(storage), max_file_size=max_file_size, clock=clock)
        await machinery.blobs.load()
        return machinery

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(change_dict)` after every committed change; returns a function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self, change: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # a broken listener must not undo a stored change
                log.exception("workspace listener failed")

    def mark_stale(self) -> None:
        self._dirty = True

    async def refresh(self) -> None:
        """Reload from storage (another tab changed the workspace)."""
        async with self._lock:
            await self._reload()

    # --- committing --------------------------------------------------------------------------------

    async def mutate(
        self, build: Build, turn: str | None, author: str | None, *, strict: bool = True
    ) -> Change:
        async with self._lock, self.storage.lock():
            for attempt in range(2):
                await self._sync()
                stamp = attribution(turn, author, self.tree.meta.commit + 1)
                plan = Plan(self.tree, strict=strict)
                await build(plan)
                try:
                    return await self._commit(plan, stamp)
                except StaleState:
                    self._dirty = True
                    if attempt:
                        raise
        raise AssertionError("unreachable")

    async def _commit(self, plan: Plan, stamp: Attribution) -> Change:
        targets, skipped = plan.resolve()
        built = await plan.build(
            targets, self.blobs, turn=stamp.turn, author=stamp.author, time=self._now(), note=plan.note
        )
        if built is None:
            return Change(None, stamp.turn, stamp.author, [], skipped)
        try:
            await self.storage.commit(built.batch)
        except WorkspaceError:
            self._dirty = True
            raise
        except Exception as exc:
            self._dirty = True
            raise StorageError(f"the change could not be stored ({exc}); nothing of it was saved") from exc
        old = [self.tree.entries[e.id] for e in built.entries if e.id in self.tree.entries]
        self.tree.put_entries(built.entries)
        self.tree.put_turn(built.turn)
        self.tree.meta, self.tree.meta_json = built.meta, built.meta.to_json()
        self.blobs.stored(built.encoded)
        self._cache_texts(built.entries, built.contents, old)
        change = Change(built.commit.number, stamp.turn, stamp.author, built.versions, skipped)
        self._notify(
            {
                "type": "commit",
                "commit": change.commit,
                "turn": change.turn,
                "author": change.author,
                "paths": built.commit.paths,
                "note": plan.note,
            }
        )
        return change

    def _cache_texts(self, entries: list[Entry], contents: dict[str, bytes], old: list[Entry]) -> None:
        for entry in entries:
            if entry.live and entry.sha256 and not entry.binary and entry.sha256 in contents:
                self._texts.setdefault(entry.sha256, contents[entry.sha256].decode("utf-8"))
            if entry.sha256 in contents:
                self.blobs.remember(entry.sha256, contents[entry.sha256])
        for entry in old:
            if entry.sha256 and self.tree.refs[entry.sha256] <= 0:
                self._texts.pop(entry.sha256, None)

    def _now(self) -> float:
        return round(self._clock(), 3)

    async def store_history(self, batch: Batch, replace: bool = False) -> None:
        """Store a whole history into this empty workspace, or with `replace` in place of everything it
        holds, in the same commit (so a history that cannot be stored leaves the old one whole)."""
        async with self._lock, self.storage.lock():
            await self._sync()
            gone = sorted(self.tree.live)
            if replace:
                batch.clears = list(WORKSPACE_STORES)
            elif self.tree.entries or self.tree.meta.commit:
                raise InvalidArgument(
                    "importing a history needs an empty workspace: clear it first, or import the files only"
                )
            batch.guard = ("meta", "state", self.tree.meta_json)
            try:
                await self.storage.commit(batch)
            finally:
                self._dirty = True
            await self._reload()
        live = sorted(self.tree.live)
        if replace:
            self._notify({"type": "clear", "commit": None, "turn": None, "author": None, "paths": gone})
        self._notify(
            {"type": "import", "commit": self.tree.meta.commit, "turn": None, "author": None, "paths": live}
        )

    async def erase(self) -> None:
        """Delete every record of the workspace's stores in one commit (chats and memory stay)."""
        async with self._lock, self.storage.lock():
            gone = sorted(self.tree.live)
            await self.storage.commit(Batch(clears=list(WORKSPACE_STORES)))
            self.tree = Tree()
            self.blobs.forget()
            self._texts.clear()
            self._dirty = False
            self._notify({"type": "clear", "commit": None, "turn": None, "author": None, "paths": gone})

    # --- reading -----------------------------------------------------------------------------------

    async def _sync(self) -> None:
        """Reload when a failure left memory unsure, or another tab committed since."""
        if not self._dirty:
            stored = await self.storage.get("meta", "state")
            if stored == self.tree.meta_json:
                return
        await self._reload()

    async def heads(self) -> Tree:
        if self._dirty:
            async with self._lock:
                if self._dirty:
                    await self._reload()
        return self.tree

    async def _reload(self) -> None:
        """Read the state again from storage; listeners hear of it when it changed (another tab wrote)."""
        before = self.tree.meta_json
        self.tree = await Tree.load(self.storage)
        await self.blobs.load()
        self._texts = {sha: text for sha, text in self._texts.items() if self.tree.refs[sha] > 0}
        self._dirty = False
        if self.tree.meta_json != before:
            self._notify(
                {"type": "reload", "commit": self.tree.meta.commit, "turn": None, "author": None, "paths": []}
            )

    def check_size(self, path: str, size: int) -> None:
        if size > self.max_file_size:
            raise FileTooLarge(
                f"{path} would be {size_text(size)}; the limit is {size_text(self.max_file_size)} per file",
                path=path,
            )

    async def text_of(self, entry: Entry) -> str | None:
        if entry.binary or entry.sha256 is None:
            return None
        return (await self.texts_of([entry])).get(entry.sha256)

    async def texts_of(self, entries: Sequence[Entry]) -> dict[str, str]:
        missing = {e.sha256 for e in entries if e.sha256 and not e.binary and e.sha256 not in self._texts}
        if missing:
            for sha, data in (await self.blobs.read_many(missing)).items():
                text = decode_text(data)
                if text is not None:
                    self._texts[sha] = text
        return {e.sha256: self._texts[e.sha256] for e in entries if e.sha256 in self._texts}
