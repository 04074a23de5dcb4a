"""A change being prepared: the wanted state of some entries, checked, then turned into ONE batch.

Every mutation (write, edit, delete, move, undo, restore, import) says what it wants each touched entry to
become (`Target`); `Plan.resolve` checks the result is a valid tree (one entry per path, parents are
folders, a folder that moves away or goes leaves nothing behind) and adds the missing parent folders.
In strict mode the first problem is raised; otherwise the offending targets are dropped and reported as
conflicts. `Plan.build` then writes the versions, heads, blobs, commit, turn and meta into one Batch.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from agentlite.workspace import paths
from agentlite.workspace.blobs import BlobStore, Encoded
from agentlite.workspace.content import decode_text, sha256
from agentlite.workspace.records import (
    Commit,
    Entry,
    Kind,
    Meta,
    Op,
    Turn,
    Version,
    commit_key,
    entry_key,
)
from agentlite.workspace.storage import Batch
from agentlite.workspace.tree import Tree
from agentlite.workspace.workspace_errors import AlreadyExists, Conflict, NotADirectory, WorkspaceError


@dataclass(frozen=True)
class Target:
    """What one entry should be after the change; `path is None` means deleted."""

    path: str | None
    kind: Kind
    sha256: str | None = None
    size: int = 0
    binary: bool = False
    op: Op | None = None  # the op to record for a content change ("edit"; default "write")


@dataclass(frozen=True)
class Skipped:
    """A target left out of a non-strict change, with the reason."""

    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


@dataclass
class Built:
    batch: Batch
    entries: list[Entry]
    versions: list[Version]
    encoded: list[Encoded]
    commit: Commit
    turn: Turn
    meta: Meta
    contents: dict[str, bytes] = field(default_factory=dict)


class Plan:
    def __init__(self, tree: Tree, *, strict: bool = True) -> None:
        self.tree = tree
        self.strict = strict
        self.targets: dict[int, Target] = {}
        self.contents: dict[str, bytes] = {}
        self.next_id = tree.meta.next_id
        self.implicit_next_id = self.next_id
        self.note: str | None = None
        self.early: list[Skipped] = []  # conflicts found before resolve (changed since, ...)

    def skip(self, path: str, reason: str) -> None:
        self.early.append(Skipped(path, reason))

    def new_entry(self, path: str, kind: Kind) -> int:
        """An id for a new entry at `path`: the one deleted there last when free, else a fresh one."""
        grave = self.tree.grave(path, kind)
        if grave is not None and grave not in self.targets:
            return grave
        self.next_id += 1
        return self.next_id - 1

    def set(self, eid: int, target: Target) -> None:
        self.targets[eid] = target

    def content(self, data: bytes) -> Target:
        """A file target template for `data` (path filled in by the caller with `evolve`)."""
        sha = sha256(data)
        self.contents[sha] = data
        return Target(None, "file", sha, len(data), decode_text(data) is None)

    def kind_of(self, eid: int, targets: dict[int, Target]) -> Kind:
        return targets[eid].kind if eid in targets else self.tree.entries[eid].kind

    def resolve(self) -> tuple[dict[int, Target], list[Skipped]]:
        explicit = dict(self.targets)
        skipped: list[Skipped] = list(self.early)
        while True:
            targets, problems = self._place(explicit)
            if not problems:
                return targets, skipped
            if self.strict:
                raise next(iter(problems.values()))
            for eid, error in problems.items():
                skipped.append(Skipped(self._where(eid, explicit), error.message))
                del explicit[eid]

    def _where(self, eid: int, targets: dict[int, Target]) -> str:
        entry = self.tree.entries.get(eid)
        return entry.path if entry is not None else targets[eid].path or "?"

    def _place(self, explicit: dict[int, Target]) -> tuple[dict[int, Target], dict[int, WorkspaceError]]:
        taken = {p: e for p, e in self.tree.live.items() if e not in explicit}
        targets = dict(explicit)
        problems: dict[int, WorkspaceError] = {}
        for eid, target in sorted(explicit.items(), key=lambda item: item[1].path or ""):
            if target.path is None:
                continue
            if target.path in taken:
                problems[eid] = AlreadyExists(f"{target.path} already exists", path=target.path)
            else:
                taken[target.path] = eid
        if problems:
            return targets, problems
        next_id = self.next_id
        for eid, target in sorted(explicit.items(), key=lambda item: item[1].path or ""):
            for folder in paths.ancestors(target.path) if target.path else []:
                holder = taken.get(folder)
                if holder is None:
                    grave = self.tree.grave(folder, "dir")
                    if grave is None or grave in targets:
                        grave, next_id = next_id, next_id + 1
                    targets[grave] = Target(folder, "dir")
                    taken[folder] = grave
                elif self.kind_of(holder, targets) != "dir":
                    problems[eid] = NotADirectory(
                        f"cannot put {target.path} there: {folder} is a file, not a folder", path=target.path
                    )
                    break
        self.implicit_next_id = next_id
        problems.update(self._emptied_folders(explicit, targets, taken))
        return targets, problems

    def _emptied_folders(
        self, explicit: dict[int, Target], targets: dict[int, Target], taken: dict[str, int]
    ) -> dict[int, WorkspaceError]:
        """A folder that goes away or moves must leave nothing behind at its old place."""
        problems: dict[int, WorkspaceError] = {}
        keys = sorted(taken)
        for eid, target in explicit.items():
            entry = self.tree.entries.get(eid)
            if entry is None or not entry.live or entry.kind != "dir" or target.path == entry.path:
                continue
            holder = taken.get(entry.path)
            if holder is not None and self.kind_of(holder, targets) == "dir":
                continue
            prefix = entry.path + "/"
            index = bisect.bisect_left(keys, prefix)
            if index < len(keys) and keys[index].startswith(prefix):
                problems[eid] = Conflict(
                    f"the folder {entry.path} is not empty ({keys[index]})", path=entry.path
                )
        return problems

    async def build(
        self,
        targets: dict[int, Target],
        blobs: BlobStore,
        *,
        turn: str,
        author: str,
        time: float,
        note: str | None,
    ) -> Built | None:
        """The batch for `targets` (from resolve), or None when nothing changes."""
        number = self.tree.meta.commit + 1
        entries: list[Entry] = []
        versions: list[Version] = []
        encoded: list[Encoded] = []
        pending: dict[str, str] = {}
        touched: set[str] = set()
        for eid, target in sorted(targets.items(), key=lambda item: (item[1].path or "", item[0])):
            current = self.tree.entries.get(eid)
            version = self._version(eid, target, current, number, turn, author, time, note)
            if version is None:
                continue
            versions.append(version)
            touched.update(p for p in (version.path, version.source) if p)
            base, chain = (current.base, current.chain) if current is not None else (None, 0)
            if target.sha256 is not None and (current is None or current.sha256 != target.sha256):
                item = await blobs.encode(
                    self.contents.get(target.sha256, b""), target.sha256, current, pending
                )
                pending[item.sha256] = item.base
                if item.value is not None:
                    encoded.append(item)
                base, chain = item.base, item.chain
            entries.append(self._entry(version, base, chain))
        if not versions:
            return None
        return self._batch(number, entries, versions, encoded, sorted(touched), turn, author, time, note)

    def _version(
        self,
        eid: int,
        target: Target,
        current: Entry | None,
        number: int,
        turn: str,
        author: str,
        time: float,
        note: str | None,
    ) -> Version | None:
        """The version record that takes `current` to `target` (None when nothing changes)."""
        op = _op_of(target, current)
        if op is None:
            return None
        content = target.path is not None and target.kind == "file"
        return Version(
            id=eid,
            version=current.version + 1 if current else 1,
            path=target.path or (current.path if current else ""),
            kind=target.kind,
            op=op,
            parent=current.version if current else None,
            commit=number,
            turn=turn,
            author=author,
            time=time,
            blob=target.sha256 if content else None,
            sha256=target.sha256 if content else None,
            size=target.size if content else 0,
            binary=target.binary if content else False,
            source=current.path if op == "move" and current is not None else None,
            note=note,
        )

    @staticmethod
    def _entry(version: Version, base: str | None, chain: int) -> Entry:
        return Entry(
            id=version.id,
            path=version.path,
            kind=version.kind,
            version=version.version,
            live=version.live,
            commit=version.commit,
            sha256=version.sha256,
            size=version.size,
            binary=version.binary,
            base=base if version.sha256 else None,
            chain=chain if version.sha256 else 0,
        )

    def _batch(
        self,
        number: int,
        entries: list[Entry],
        versions: list[Version],
        encoded: list[Encoded],
        touched: list[str],
        turn: str,
        author: str,
        time: float,
        note: str | None,
    ) -> Built:
        tree = self.tree
        commit = Commit(number, turn, author, time, [(v.id, v.version) for v in versions], touched, note)
        old = tree.turns.get(turn)
        record = (
            old.evolve(last=number, commits=old.commits + 1)
            if old is not None
            else Turn(turn, author, time, number, number)
        )
        top = max([tree.meta.next_id, self.next_id, self.implicit_next_id] + [e.id + 1 for e in entries])
        meta = Meta(next_id=top, commit=number)
        batch = Batch(guard=("meta", "state", tree.meta_json))
        for item in encoded:
            assert item.value is not None
            batch.put("blobs", item.sha256, item.value)
        for version in versions:
            batch.put("versions", version.key, version.to_json())
        for entry in entries:
            batch.put("entries", entry_key(entry.id), entry.to_json())
        batch.put("commits", commit_key(number), commit.to_json())
        batch.put("turns", turn, record.to_json())
        batch.put("meta", "state", meta.to_json())
        return Built(batch, entries, versions, encoded, commit, record, meta, self.contents)


def _op_of(target: Target, current: Entry | None) -> Op | None:
    """create / delete / move / write-or-edit, or None when the entry stays as it is."""
    live = current is not None and current.live
    if target.path is None:
        return "delete" if live else None
    if current is None or not live:
        return "create"
    if current.path != target.path:
        return "move"
    if current.sha256 != target.sha256:
        return target.op or "write"
    return None
