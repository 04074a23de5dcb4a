"""History operations: versions, diffs, hunks, and the changes that go back in time.

Each of undo, revert_hunk, undo_turn and restore_before computes the wanted state of the entries it
touches from stored version records and commits it as a NEW change (history only grows, and the undo is
itself undoable):

- `undo(path)`: the newest commit that changed the entry at `path` (live or deleted there last) is
  reverted for that entry, for any other entry it deleted at `path` or moved away from there (the one it
  replaced: a restore that put a file where a folder was, or the reverse), for everything below `path`,
  and for the parent folders that commit created for them. Undo of a create deletes, undo of a delete
  restores, undo of a move moves back, and undo of an undo gives back what the first one took.
  An entry changed again since that commit (say, a restore brought it back at another path) is kept and
  reported as a conflict, as in `undo_commit`: one entry is never in two places.
- `revert_hunk(path, version, i)`: hunk `i` (0-based, as listed by `hunks`) of the change that made
  `version` is reverted in the current text; Conflict when those lines were edited since.
- `undo_commit(number)`: every entry that commit changed goes back to its state before it (one shell
  run is one commit), unless changed again later: such entries are reported as conflicts, untouched.
- `undo_turn(turn)`: every entry the turn changed goes back to its state before the turn, unless it was
  changed again after (or between) the turn's changes: such entries are reported as conflicts, untouched.
- `restore_before(turn)`: the whole workspace as it was just before the turn's first commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from agentlite.workspace import diffs, paths
from agentlite.workspace.change_plan import Plan, Target
from agentlite.workspace.committer import Committer
from agentlite.workspace.content import decode_text
from agentlite.workspace.records import Commit, Entry, Kind, Version, commit_key, version_key
from agentlite.workspace.results import Change
from agentlite.workspace.workspace_errors import CorruptData, InvalidArgument, NotAFile, NotFound


async def versions_of(committer: Committer, eid: int) -> list[Version]:
    rows = await committer.storage.scan("versions", f"{eid:010d}:", f"{eid:010d};")
    return [Version.from_json(value) for _key, value in rows]


async def records(committer: Committer, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Version]:
    wanted = [pair for pair in dict.fromkeys(pairs) if pair[1] >= 1]
    values = await committer.storage.get_many("versions", [version_key(eid, v) for eid, v in wanted])
    found: dict[tuple[int, int], Version] = {}
    for pair, value in zip(wanted, values, strict=True):
        if value is None:
            raise CorruptData(f"version {pair[1]} of entry {pair[0]} is missing from storage")
        found[pair] = Version.from_json(value)
    return found


async def commits(committer: Committer, first: int, last: int | None = None) -> list[Commit]:
    stop = None if last is None else commit_key(last + 1)
    return [
        Commit.from_json(value)
        for _key, value in await committer.storage.scan("commits", commit_key(first), stop)
    ]


def state_of(record: Version | None, kind: Kind) -> Target:
    """The target that brings an entry back to `record` (None: to not existing)."""
    if record is None or not record.live:
        return Target(None, kind)
    return Target(record.path, record.kind, record.sha256, record.size, record.binary)


async def _version(committer: Committer, path: str, version: int | None) -> tuple[Entry, Version]:
    target = paths.normalize(path)
    entry = (await committer.heads()).last_at(target)
    if entry is None:
        raise NotFound(f"{target} has no history", path=target)
    number = entry.version if version is None else version
    if not isinstance(number, int) or not 1 <= number <= entry.version:
        raise NotFound(f"{target} has versions 1 to {entry.version}, not {version!r}", path=target)
    return entry, (await records(committer, [(entry.id, number)]))[(entry.id, number)]


async def _content(committer: Committer, record: Version | None) -> bytes:
    if record is None or not record.live or record.sha256 is None:
        return b""
    return await committer.blobs.read(record.sha256)


async def read_version(committer: Committer, path: str, version: int) -> bytes | None:
    """The content a file had at `version` (None for a deleted state or a folder)."""
    _entry, record = await _version(committer, path, version)
    return None if not record.live or record.kind == "dir" else await _content(committer, record)


async def _texts(committer: Committer, old: Version | None, new: Version) -> tuple[str, str] | None:
    a, b = decode_text(await _content(committer, old)), decode_text(await _content(committer, new))
    return None if a is None or b is None else (a, b)


async def diff(committer: Committer, path: str, old_version: int | None, new_version: int | None) -> str:
    """A unified diff from `old_version` (default: the one before `new_version`) to `new_version`."""
    entry, new = await _version(committer, path, new_version)
    old = None
    number = new.version - 1 if old_version is None else old_version
    if number >= 1:
        old = (await _version(committer, entry.path, number))[1]
    texts = await _texts(committer, old, new)
    old_name = f"a{old.path}@v{old.version}" if old else "/dev/null"
    if texts is None:
        return f"Binary files {old_name} and b{new.path}@v{new.version} differ\n"
    return diffs.unified(texts[0], texts[1], old_name, f"b{new.path}@v{new.version}")


async def hunks_of(committer: Committer, path: str, version: int) -> list[diffs.Hunk]:
    """The hunks of the change that made `version` (against the version before it)."""
    entry, new = await _version(committer, path, version)
    old = (await _version(committer, entry.path, version - 1))[1] if version > 1 else None
    texts = await _texts(committer, old, new)
    if texts is None:
        raise NotAFile(f"version {version} of {entry.path} is binary; it has no text hunks", path=entry.path)
    return diffs.hunks(*texts)


async def undo(committer: Committer, path: str, turn: str | None, author: str | None) -> Change:
    target = paths.normalize(path)

    async def build(plan: Plan) -> None:
        entry = plan.tree.last_at(target)
        if entry is None:
            raise NotFound(f"{target} has no change to undo", path=target)
        (commit,) = await commits(committer, entry.commit, entry.commit)
        found = await records(committer, commit.changes)
        chosen = [r for r in found.values() if r.id == entry.id or _within(r, entry.path)]
        where = [r.path for r in chosen]
        chosen += [
            r
            for r in found.values()
            if r.op == "create" and r.kind == "dir" and any(paths.is_below(p, r.path) for p in where)
        ]
        plan.note = f"undo of commit {commit.number} at {entry.path}"
        await _go_back(committer, plan, {r.id: r.version for r in chosen}, {r.id: r.version for r in chosen})

    return await committer.mutate(build, turn, author, strict=False)


def _within(record: Version, path: str) -> bool:
    """Whether the change `record` was made at `path` or below it: also an entry that change deleted
    there or moved away from there, which the entry now at `path` replaced (a file where a folder was)."""
    return paths.is_within(record.path, path) or (
        record.source is not None and paths.is_within(record.source, path)
    )


async def _go_back(committer: Committer, plan: Plan, first: dict[int, int], last: dict[int, int]) -> None:
    """Set each entry back to its state before version `first[id]`, unless it changed after `last[id]`."""
    keep: list[int] = []
    for eid in sorted(first):
        entry = plan.tree.entries[eid]
        if entry.version != last[eid]:
            plan.skip(entry.path, f"{entry.path} was changed again later (now version {entry.version}); kept")
        else:
            keep.append(eid)
    found = await records(committer, [(eid, first[eid] - 1) for eid in keep])
    for eid in keep:
        plan.set(eid, state_of(found.get((eid, first[eid] - 1)), plan.tree.entries[eid].kind))


async def undo_commit(committer: Committer, number: int, turn: str | None, author: str | None) -> Change:
    async def build(plan: Plan) -> None:
        found = await commits(committer, number, number) if isinstance(number, int) and number >= 1 else []
        if not found:
            raise NotFound(
                f"there is no change {number!r} (changes are numbered 1 to {plan.tree.meta.commit})"
            )
        changed = dict(found[0].changes)
        plan.note = f"undo of commit {number}"
        await _go_back(committer, plan, changed, changed)

    return await committer.mutate(build, turn, author, strict=False)


async def undo_turn(committer: Committer, turn_id: str, turn: str | None, author: str | None) -> Change:
    async def build(plan: Plan) -> None:
        record = plan.tree.turns.get(turn_id)
        if record is None:
            raise NotFound(f"there is no turn {turn_id!r}")
        changed: dict[int, list[int]] = {}
        for commit in await commits(committer, record.first, record.last):
            if commit.turn == turn_id:
                for eid, version in commit.changes:
                    changed.setdefault(eid, []).append(version)
        first = {eid: min(vs) for eid, vs in changed.items()}
        last = {eid: max(vs) for eid, vs in changed.items()}
        for eid, vs in changed.items():
            if last[eid] - first[eid] + 1 != len(set(vs)):  # another turn changed it in between
                last[eid] = -1
        plan.note = f"undo of turn {turn_id}"
        await _go_back(committer, plan, first, last)

    return await committer.mutate(build, turn, author, strict=False)


async def restore_before(committer: Committer, turn_id: str, turn: str | None, author: str | None) -> Change:
    async def build(plan: Plan) -> None:
        record = plan.tree.turns.get(turn_id)
        if record is None:
            raise NotFound(f"there is no turn {turn_id!r}")
        first: dict[int, int] = {}
        for commit in await commits(committer, record.first):
            for eid, version in commit.changes:
                first[eid] = min(first.get(eid, version), version)
        plan.note = f"restore before turn {turn_id}"
        current = {eid: plan.tree.entries[eid].version for eid in first}
        await _go_back(committer, plan, first, current)

    return await committer.mutate(build, turn, author, strict=False)


async def revert_hunk(
    committer: Committer, path: str, version: int, hunk_index: int, turn: str | None, author: str | None
) -> Change:
    target = paths.normalize(path, allow_root=False)
    parts = await hunks_of(committer, target, version)
    if not isinstance(hunk_index, int) or not 0 <= hunk_index < len(parts):
        raise InvalidArgument(
            f"version {version} of {target} has {len(parts)} hunks "
            f"(0 to {len(parts) - 1}), not {hunk_index!r}",
            path=target,
        )

    async def build(plan: Plan) -> None:
        entry = plan.tree.file_at(target)
        current = await committer.text_of(entry)
        if current is None:
            raise NotAFile(f"{target} is binary now; hunks cannot be reverted", path=target)
        reverted = diffs.revert_hunk(current, parts[hunk_index])
        committer.check_size(target, len(reverted.encode("utf-8")))
        plan.note = f"revert hunk {hunk_index} of version {version}"
        plan.set(entry.id, replace(plan.content(reverted.encode("utf-8")), path=entry.path, op="edit"))

    return await committer.mutate(build, turn, author)
