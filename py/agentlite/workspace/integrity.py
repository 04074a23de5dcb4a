"""A consistency check of what is stored: the proof, after a crash or a full disk, that nothing is torn.

For every entry: its versions are numbered 1..head without a gap, the head pointer agrees with its newest
version, and every version's content is present and hashes to its sha256. Contents are read from storage
with an empty cache, so a blob that only memory still holds counts as missing.
"""

from __future__ import annotations

from agentlite.workspace import timeline
from agentlite.workspace.blobs import STORE, BlobStore
from agentlite.workspace.committer import Committer
from agentlite.workspace.records import Entry, Version
from agentlite.workspace.workspace_errors import WorkspaceError


async def check(committer: Committer, contents: bool = True) -> list[str]:
    """Every inconsistency found, as a sentence; an empty list when the stored workspace is sound.
    `contents=False` only asks that every content be present (for contents verified just before)."""
    tree = await committer.heads()
    uncached = BlobStore(committer.storage, cache_bytes=0)
    present = set(await committer.storage.keys(STORE))
    problems: list[str] = []
    for entry in sorted(tree.entries.values(), key=lambda e: e.id):
        records = await timeline.versions_of(committer, entry.id)
        problems += head_problems(entry, records)
        if contents:
            problems += await _content_problems(uncached, entry, records)
        else:
            problems += [
                f"{entry.path}: version {r.version} has no content"
                for r in records
                if r.live and r.sha256 is not None and r.sha256 not in present
            ]
    return problems


def head_problems(entry: Entry, records: list[Version]) -> list[str]:
    numbers = [r.version for r in records]
    if numbers != list(range(1, entry.version + 1)):
        return [f"{entry.path}: versions {numbers} do not run from 1 to its head {entry.version}"]
    newest = records[-1]
    if (newest.live, newest.path, newest.sha256) != (entry.live, entry.path, entry.sha256):
        return [f"{entry.path}: the head does not match its newest version {newest.version}"]
    return []


async def _content_problems(blobs: BlobStore, entry: Entry, records: list[Version]) -> list[str]:
    problems = []
    for record in records:
        if record.sha256 is None or not record.live:
            continue
        try:
            await blobs.read(record.sha256)
        except WorkspaceError as exc:
            problems.append(f"{entry.path}: version {record.version} cannot be read ({exc})")
    return problems
