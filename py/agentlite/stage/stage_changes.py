"""What a stage changes against the workspace as it is now: one `FileChange` per file that differs.

A file's entry on the stage is compared with the workspace's entry of the same id (a file the stage
created has none). The stage began from some version of each entry (`start`); when the workspace moved
past it since (the user saved, another chat's change was kept, the folder on disk changed), the file is
in conflict and is never written over without the user's answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentlite.stage.layers import PrefixedStorage
from agentlite.workspace.records import Entry, Version
from agentlite.workspace.tree import Tree


@dataclass(frozen=True)
class FileChange:
    path: str  # where the file is on the stage (a deleted one: where it was)
    change: str  # created | edited | deleted | moved
    source: str | None  # a move's old path
    staged: Entry
    now: Entry | None  # the workspace's entry now (same id), or the file at the path of a created one
    start: int | None  # the workspace version the stage began from (None: the stage created it)
    conflict: bool
    hidden: bool = False  # a deletion that goes with the file taking its path (not a row of its own)

    @property
    def binary(self) -> bool:
        return self.staged.binary or bool(self.now and self.now.binary)

    @property
    def before_path(self) -> str:
        return self.now.path if self.now is not None and self.now.live else self.path


async def stage_changes(
    base: Tree, staged: Tree, top: PrefixedStorage, starts: dict[str, int]
) -> list[FileChange]:
    """Every file the stage holds differently from the workspace, sorted by path. A deleted file whose
    path another changed file takes on the stage (moved or written there) is `hidden`: it goes with it."""
    first = await _first_parents(top)
    found: list[FileChange] = []
    for key in await top.keys("entries"):
        eid = int(key)
        entry = staged.entries.get(eid)
        if entry is None or entry.kind != "file":
            continue
        start = starts.get(str(eid), first.get(eid))
        change = _change(base, staged, entry, base.entries.get(eid), start)
        if change is not None:
            found.append(change)
    taken = {c.path for c in found if c.staged.live}
    found = [replace(c, hidden=True) if c.change == "deleted" and c.path in taken else c for c in found]
    return sorted(found, key=lambda c: c.path)


def _change(
    base: Tree, staged: Tree, entry: Entry, now: Entry | None, start: int | None
) -> FileChange | None:
    was_live = now is not None and now.live
    if not entry.live and not was_live:
        return None
    if was_live and entry.live and now is not None and now.path == entry.path and now.sha256 == entry.sha256:
        return None
    holder = _holder(base, staged, entry) if entry.live else None
    if not was_live:
        moved_on = now is not None and start is not None and now.version != start
        return FileChange(
            entry.path, "created", None, entry, holder or now, start, holder is not None or moved_on
        )
    assert now is not None
    conflict = start is None or now.version != start or holder is not None
    if not entry.live:
        return FileChange(now.path, "deleted", None, entry, now, start, conflict)
    if now.path != entry.path:
        return FileChange(entry.path, "moved", now.path, entry, now, start, conflict)
    return FileChange(entry.path, "edited", None, entry, now, start, conflict)


def _holder(base: Tree, staged: Tree, entry: Entry) -> Entry | None:
    """Another file the workspace has at the entry's path that the stage leaves there: a conflict (one the
    stage moves away or deletes is not)."""
    holder = base.at(entry.path)
    if holder is None or holder.id == entry.id:
        return None
    seen = staged.entries.get(holder.id)
    return holder if seen is not None and seen.live and seen.path == entry.path else None


async def _first_parents(top: PrefixedStorage) -> dict[int, int | None]:
    """For each entry the layer changed, the version its first change in the layer was made on."""
    first: dict[int, int | None] = {}
    for _key, raw in await top.scan("versions"):
        version = Version.from_json(raw)
        if version.id not in first:
            first[version.id] = version.parent
    return first
