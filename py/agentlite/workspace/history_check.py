"""The records of a history about to be imported, checked before a byte of it is stored.

An imported history is a stranger's data: its records must make one consistent workspace before it
replaces this one. Refused (with every problem named): two records under one key, two live files at one
path, an invalid path, versions that do not run 1..head or disagree with their head, a version whose parent
version or entry is missing, a commit naming a version that is not there, content the history does not
hold, and files over the import budget (declared sizes, before anything is inflated). The contents
themselves are checked after this by `history_import` (present, inflating within the per-file limit,
hashing to their sha256 and as long as declared). Paths that differ only in case are reported, not
refused: the workspace tells them apart, a case-blind disk does not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from agentlite.workspace import paths
from agentlite.workspace.import_budget import Budget
from agentlite.workspace.integrity import head_problems
from agentlite.workspace.records import Commit, Entry, Meta, Turn, Version
from agentlite.workspace.workspace_errors import WorkspaceError

FORMAT = "agentlite-workspace"
RECORDS: dict[str, type[Entry] | type[Version] | type[Commit] | type[Turn]] = {
    "entries": Entry,
    "versions": Version,
    "commits": Commit,
    "turns": Turn,
}


@dataclass
class History:
    """A history's records by kind, as read from its archive (`problems` found while reading them)."""

    meta: Meta
    entries: dict[int, Entry] = field(default_factory=dict)
    versions: dict[tuple[int, int], Version] = field(default_factory=dict)
    commits: dict[int, Commit] = field(default_factory=dict)
    turns: dict[str, Turn] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, record: Entry | Version | Commit | Turn) -> None:
        """One record; a second under the same key is a problem (the first is kept)."""
        if isinstance(record, Entry):
            self._put(self.entries, record.id, record, f"entry {record.id}")
        elif isinstance(record, Version):
            self._put(
                self.versions, (record.id, record.version), record, f"{record.path} version {record.version}"
            )
        elif isinstance(record, Commit):
            self._put(self.commits, record.number, record, f"commit {record.number}")
        else:
            self._put(self.turns, record.turn, record, f"turn {record.turn!r}")

    def _put(self, store: dict, key: object, record: object, name: str) -> None:  # type: ignore[type-arg]
        if key in store:
            self.problems.append(f"two records of {name}")
        else:
            store[key] = record

    def blobs_needed(self) -> dict[str, int]:
        """sha256 -> declared size of every content a version holds."""
        return {v.sha256: v.size for v in self.versions.values() if v.sha256 is not None}


def problems(history: History, blobs: set[str], budget: Budget) -> list[str]:
    """Every problem of the records (`blobs`: the contents the archive holds); [] when they are sound."""
    found = list(history.problems)
    found += _path_problems(history)
    found += _version_problems(history, blobs)
    found += _commit_problems(history)
    if not found:
        found += _budget_problems(history, budget)
    return found


def _path_problems(history: History) -> list[str]:
    found = []
    for entry in history.entries.values():
        if _normal(entry.path) != entry.path:
            found.append(f"an invalid path {entry.path!r}")
    live = Counter(e.path for e in history.entries.values() if e.live)
    found += [f"{count} live entries at {path}" for path, count in sorted(live.items()) if count > 1]
    return found


def _normal(path: str) -> str | None:
    try:
        return paths.normalize(path)
    except WorkspaceError:
        return None


def _version_problems(history: History, blobs: set[str]) -> list[str]:
    found = []
    by_entry: dict[int, list[Version]] = {}
    for version in sorted(history.versions.values(), key=lambda v: (v.id, v.version)):
        by_entry.setdefault(version.id, []).append(version)
        if version.id not in history.entries:
            found.append(f"{version.path} version {version.version} belongs to no entry")
        if version.parent is not None and (version.id, version.parent) not in history.versions:
            found.append(f"{version.path} version {version.version}: its parent {version.parent} is missing")
        if version.sha256 is not None and version.sha256 not in blobs:
            found.append(
                f"{version.path} version {version.version}: its content {version.sha256[:12]} is missing"
            )
    for entry in history.entries.values():
        found += head_problems(entry, by_entry.get(entry.id, []))
    return found


def _commit_problems(history: History) -> list[str]:
    found = [
        f"commit {commit.number} names version {version} of entry {eid}, which is missing"
        for commit in history.commits.values()
        for eid, version in commit.changes
        if (eid, version) not in history.versions
    ]
    newest = max(history.commits, default=0)
    if history.meta.commit != newest:
        found.append(f"its state names commit {history.meta.commit}, its newest is {newest}")
    if history.entries and history.meta.next_id <= max(history.entries):
        found.append("its state would give a new file the id of an existing one")
    return found


def _budget_problems(history: History, budget: Budget) -> list[str]:
    try:
        for version in history.versions.values():
            if version.sha256 is not None:
                budget.check_file(version.path, version.size)
        for entry in sorted(history.entries.values(), key=lambda e: e.path):
            if entry.live and entry.kind == "file":
                budget.add(entry.path, entry.size)
    except WorkspaceError as exc:
        return [exc.message]
    return []
