"""Import of a whole history (a zip exported with history): checked whole, then stored in ONE commit.

Nothing is stored until everything passed: the declared sizes (the zip's directory, then the version
records) against the import budget, the records against each other (`history_check`), and every content:
present, inflating to no more than the per-file limit (a stored blob is zlib or a delta: both are
inflated with a cap, never past it), hashing to its sha256 and as long as its versions say. Any problem
refuses the whole import with every problem named; the workspace is left as it was.
"""

from __future__ import annotations

import json
import zipfile

from agentlite.workspace.blobs import BlobStore
from agentlite.workspace.committer import Committer
from agentlite.workspace.history_check import FORMAT, RECORDS, History, problems
from agentlite.workspace.import_budget import Budget, read_member
from agentlite.workspace.records import SCHEMA, Commit, Entry, Meta, Turn, Version, commit_key, entry_key
from agentlite.workspace.results import Change
from agentlite.workspace.storage import Batch, MemoryStorage
from agentlite.workspace.workspace_errors import CorruptData, InvalidArgument, WorkspaceError

MANIFEST = "history/manifest.json"
MANIFEST_BYTES = 1024 * 1024
SHOWN = 5  # problems named in the message


async def import_history(committer: Committer, archive: zipfile.ZipFile, budget: Budget) -> Change:
    history = _read_records(archive, budget)
    values = _read_blobs(archive, budget)
    found = problems(history, set(values), budget)
    if not found:
        found = await _content_problems(values, history.blobs_needed(), budget.file_bytes)
    if found:
        more = f" (and {len(found) - SHOWN} more)" if len(found) > SHOWN else ""
        raise CorruptData(
            f"the archive's history is damaged, nothing was imported: {'; '.join(found[:SHOWN])}{more}"
        )
    await committer.store_history(_batch(history, values))
    return Change(history.meta.commit or None, "import", "user")


def _read_records(archive: zipfile.ZipFile, budget: Budget) -> History:
    manifest = json.loads(read_member(archive, archive.getinfo(MANIFEST), MANIFEST_BYTES, MANIFEST))
    if manifest.get("format") != FORMAT or manifest.get("schema") != SCHEMA:
        raise InvalidArgument(
            f"the archive's history has format {manifest.get('format')!r} "
            f"schema {manifest.get('schema')!r}; this app reads schema {SCHEMA}"
        )
    try:
        history = History(Meta.from_json(json.dumps(manifest["meta"])))
        for store, kind in RECORDS.items():
            name = f"history/{store}.jsonl"
            text = read_member(archive, archive.getinfo(name), budget.total_bytes, name).decode()
            for line in text.splitlines():
                history.add(kind.from_json(line))
    except WorkspaceError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptData(
            f"the archive's history has a damaged record ({exc}); nothing was imported"
        ) from exc
    return history


def _read_blobs(archive: zipfile.ZipFile, budget: Budget) -> dict[str, bytes]:
    """The stored blob values by sha256, each read within what a stored form of a file may take."""
    room = budget.file_bytes + budget.file_bytes // 64 + 1024  # zlib's worst case, a delta's header
    return {
        info.filename.rsplit("/", 1)[-1]: read_member(archive, info, room, info.filename)
        for info in archive.infolist()
        if info.filename.startswith("history/blobs/") and not info.is_dir()
    }


async def _content_problems(values: dict[str, bytes], declared: dict[str, int], limit: int) -> list[str]:
    """Decode every blob (deltas against their bases in the same archive) within the per-file limit, and
    check its sha256 and that it is as long as its versions declare."""
    scratch = MemoryStorage()
    scratch.data["blobs"] = dict(values)
    store = BlobStore(scratch, cache_bytes=0, limit=limit)
    await store.load()
    found = []
    for sha in sorted(values):
        try:
            data = await store.read(sha)
        except WorkspaceError as exc:
            found.append(str(exc))
            continue
        if sha in declared and len(data) != declared[sha]:
            found.append(f"content {sha[:12]} is {len(data)} bytes, its versions say {declared[sha]}")
    return found


def _batch(history: History, values: dict[str, bytes]) -> Batch:
    batch = Batch()
    for sha, value in sorted(values.items()):
        batch.put("blobs", sha, value)
    records: list[Entry | Version | Commit | Turn] = [
        *history.entries.values(),
        *history.versions.values(),
        *history.commits.values(),
        *history.turns.values(),
    ]
    for record in records:
        batch.put(_store_of(record), _key_of(record), record.to_json())
    batch.put("meta", "state", history.meta.to_json())
    return batch


def _store_of(record: Entry | Version | Commit | Turn) -> str:
    return next(store for store, kind in RECORDS.items() if isinstance(record, kind))


def _key_of(record: Entry | Version | Commit | Turn) -> str:
    if isinstance(record, Entry):
        return entry_key(record.id)
    if isinstance(record, Version):
        return record.key
    if isinstance(record, Commit):
        return commit_key(record.number)
    return record.turn
