"""An opened folder and the workspace, brought together again: three-way, per file, from the content
(sha256) each side had at the last sync.

The page owns the folder (File System Access handles are a page API) and remembers, per file, the
disk's sha256 at the last sync; it asks here what to do, then does it. A side that still holds the
synced content has not changed, so the other side's change goes to it: the workspace's changes are
written to disk, the disk's come in as one recorded change by "disk" (`turns.DISK_AUTHOR`). A file both
changed since the sync, to different contents, is a conflict the user resolves: nothing is overwritten.
Folders are decided the same way by their presence alone (`plan_folders`), so an empty folder comes
across too and one deleted on a side goes on the other. Files in `.git/` and `node_modules/` stay on
their side; the page leaves out what the folder's `.gitignore` files exclude as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agentlite.workspace.names import has_git_dir

Shas = Mapping[str, str]  # path -> sha256 of the file's content (a path absent: no such file)


def unmirrored(path: str) -> bool:
    """True for a path in `node_modules/` or in git's own folder, any spelling (names.py)."""
    return "node_modules" in path.split("/") or has_git_dir(path)


@dataclass
class MirrorPlan:
    to_disk: list[str] = field(default_factory=list)  # write the workspace's file to disk
    delete_on_disk: list[str] = field(default_factory=list)
    from_disk: list[str] = field(default_factory=list)  # import the disk's file
    delete_in_workspace: list[str] = field(default_factory=list)
    settled: list[str] = field(default_factory=list)  # both sides agree: only the sync state moves on
    conflicts: list[dict[str, str | None]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "to_disk": self.to_disk,
            "delete_on_disk": self.delete_on_disk,
            "from_disk": self.from_disk,
            "delete_in_workspace": self.delete_in_workspace,
            "settled": self.settled,
            "conflicts": self.conflicts,
        }


def plan(workspace: Shas, disk: Shas, synced: Shas, only: Iterable[str] | None = None) -> MirrorPlan:
    """What to do for each path (every path any side knows, or just `only`)."""
    result = MirrorPlan()
    every = {p for p in set(workspace) | set(disk) | set(synced) if not unmirrored(p)}
    for path in sorted(every if only is None else set(only) & every):
        _decide(path, workspace.get(path), disk.get(path), synced.get(path), result)
    return result


def _decide(path: str, mine: str | None, theirs: str | None, base: str | None, result: MirrorPlan) -> None:
    if mine == theirs:
        if mine != base:
            result.settled.append(path)
    elif theirs == base:
        (result.to_disk if mine is not None else result.delete_on_disk).append(path)
    elif mine == base:
        (result.from_disk if theirs is not None else result.delete_in_workspace).append(path)
    else:
        result.conflicts.append({"path": path, "workspace": mine, "disk": theirs})


def plan_folders(
    workspace: Iterable[str], disk: Iterable[str], synced: Iterable[str], only: Iterable[str] | None = None
) -> MirrorPlan:
    """The same three-way for folders, by presence: `to_disk` / `from_disk` create a folder on that side,
    `delete_on_disk` / `delete_in_workspace` remove it there (the doer removes only an emptied folder).
    Presence has two values, so one side always still holds the synced state: never a conflict."""

    def present(folders: Iterable[str]) -> dict[str, str]:
        return dict.fromkeys(folders, "dir")

    return plan(present(workspace), present(disk), present(synced), only)
