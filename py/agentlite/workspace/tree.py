"""The workspace's state in memory: every entry's head, which path holds what, the turns.

Loaded once from storage, then updated only after a commit succeeded (so a failed commit leaves it as it
was). `graves` remembers, for each path whose file or folder was deleted, the entry deleted there last:
undo and history of a deleted path find it, and a file created again at that path continues its history.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Iterable

from agentlite.workspace import paths
from agentlite.workspace.records import SCHEMA, Entry, Meta, Turn
from agentlite.workspace.storage import StorageBackend
from agentlite.workspace.workspace_errors import CorruptData, NotAFile, NotFound


class Tree:
    def __init__(self) -> None:
        self.entries: dict[int, Entry] = {}
        self.live: dict[str, int] = {}
        self.graves: dict[str, int] = {}
        self.turns: dict[str, Turn] = {}
        self.meta = Meta()
        self.meta_json: str | None = None  # exactly as stored (the commit guard compares it)
        self.refs: Counter[str] = Counter()  # sha256 -> live files holding it
        self._sorted: list[str] | None = None

    @classmethod
    async def load(cls, storage: StorageBackend) -> Tree:
        tree = cls()
        raw = await storage.get("meta", "state")
        if raw is not None:
            text = raw.decode() if isinstance(raw, bytes) else raw
            schema = json.loads(text).get("schema")
            if schema != SCHEMA:
                raise CorruptData(
                    f"the stored workspace has schema {schema}; this version of the app reads schema {SCHEMA}"
                    " (reload the page to get the newest version)"
                )
            tree.meta, tree.meta_json = Meta.from_json(text), text
        tree.put_entries(Entry.from_json(value) for _key, value in await storage.scan("entries"))
        tree.turns = {t.turn: t for t in (Turn.from_json(v) for _key, v in await storage.scan("turns"))}
        return tree

    def at(self, path: str) -> Entry | None:
        """The live file or folder at `path`."""
        eid = self.live.get(path)
        return None if eid is None else self.entries[eid]

    def file_at(self, path: str) -> Entry:
        """The live file at `path`; NotFound or NotAFile (for the model) when there is none."""
        entry = self.at(path)
        if entry is None:
            raise NotFound(f"{path} does not exist", path=path)
        if entry.kind == "dir":
            raise NotAFile(f"{path} is a folder, not a file", path=path)
        return entry

    def last_at(self, path: str) -> Entry | None:
        """The live entry at `path`, else the entry deleted there last."""
        found = self.at(path)
        if found is not None:
            return found
        eid = self.graves.get(path)
        return None if eid is None else self.entries[eid]

    def grave(self, path: str, kind: str) -> int | None:
        eid = self.graves.get(path)
        if eid is None or self.entries[eid].kind != kind:
            return None
        return eid

    def is_dir(self, path: str) -> bool:
        if path == paths.ROOT:
            return True
        entry = self.at(path)
        return entry is not None and entry.kind == "dir"

    def sorted_paths(self) -> list[str]:
        if self._sorted is None:
            self._sorted = sorted(self.live)
        return self._sorted

    def below(self, folder: str) -> list[Entry]:
        """Every live entry strictly below `folder`, sorted by path."""
        keys = self.sorted_paths()
        if folder == paths.ROOT:
            return [self.entries[self.live[p]] for p in keys]
        prefix = folder + "/"
        start = bisect.bisect_left(keys, prefix)
        stop = bisect.bisect_left(keys, folder + "0")  # "0" is the character after "/"
        return [self.entries[self.live[p]] for p in keys[start:stop]]

    def put_entries(self, entries: Iterable[Entry]) -> None:
        """Install new heads (after a commit, or while loading)."""
        for entry in sorted(entries, key=lambda e: e.commit):
            old = self.entries.get(entry.id)
            if old is not None:
                if old.live and old.sha256:
                    self.refs[old.sha256] -= 1
                if old.live and self.live.get(old.path) == old.id:
                    del self.live[old.path]
                if not old.live and self.graves.get(old.path) == old.id:
                    del self.graves[old.path]
            self.entries[entry.id] = entry
            if entry.live:
                if entry.sha256:
                    self.refs[entry.sha256] += 1
                self.live[entry.path] = entry.id
                self.graves.pop(entry.path, None)
            elif entry.path not in self.live:
                self.graves[entry.path] = entry.id
        self._sorted = None

    def put_turn(self, turn: Turn) -> None:
        self.turns[turn.turn] = turn
