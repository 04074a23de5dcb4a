"""Import of a whole history (a zip exported with history): checked whole, then stored in ONE commit.

Nothing is stored until everything passed: the declared sizes (the zip's directory, then the version
records) against the import budget, the records against each other (`history_check`), and every content:
present, inflating to no more than the per-file limit (a stored blob is zlib or a delta: both are
inflated with a cap, never past it), hashing to its sha256 and as long as its versions say. Any problem
refuses the whole import with every problem named; the workspace is left as it was.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
import zlib

from agentlite.workspace.blobs import BlobStore
from agentlite.workspace.committer import Committer
from agentlite.workspace.history_check import FORMAT, RECORDS, History, problems
from agentlite.workspace.import_budget import Budget, read_member
from agentlite.workspace.records import SCHEMA, Commit, Entry, Meta, Turn, Version, commit_key, entry_key
from agentlite.workspace.results import Change
from agentlite.workspace.storage import Batch, MemoryStorage
from agentlite.workspace.workspace_errors import (
    CorruptData,
    FileTooLarge,
    InvalidArgument,
    WorkspaceError,
    size_text,
)

MANIFEST = "history/manifest.json"
MANIFEST_BYTES = 1024 * 1024
SHOWN = 5  # problems named in the message
PIECE = 256 * 1024  # bytes a whole blob is inflated by, into its hash


async def import_history(
    committer: Committer, archive: zipfile.ZipFile, budget: Budget, replace: bool = False
) -> Change:
    """The history of `archive` into an empty workspace, or with `replace` in place of this one's."""
    history = _read_records(archive, budget)
    values = _read_blobs(archive, budget)
    found = problems(history, set(values), budget)
    if not found:
        found = await content_problems(values, history.blobs_needed(), budget.file_bytes)
    if found:
        more = f" (and {len(found) - SHOWN} more)" if len(found) > SHOWN else ""
        raise CorruptData(
            f"the archive's history is damaged, nothing was imported: {'; '.join(found[:SHOWN])}{more}"
        )
    await committer.store_history(_batch(history, values), replace)
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


CACHE = 16 * 1024 * 1024  # decoded bases kept while checking (every whole blob is hashed on its own)


async def content_problems(values: dict[str, bytes], declared: dict[str, int], limit: int) -> list[str]:
    """Check every blob within the per-file limit: it hashes to its sha256 and is as long as its versions
    declare. A whole one is inflated a piece at a time into the hash, never held whole; a delta is decoded
    against its base in the same archive (`BlobStore`, with the limit)."""
    scratch = MemoryStorage()
    scratch.data["blobs"] = dict(values)
    store = BlobStore(scratch, cache_bytes=CACHE, limit=limit)  # each base decoded once
    await store.load()
    found = []
    for sha in sorted(values):
        try:
            if values[sha][:1] in (b"F", b"Z"):
                digest, size = whole_digest(values[sha], limit, sha)
            else:
                data = await store.read(sha)
                digest, size = sha, len(data)
        except WorkspaceError as exc:
            found.append(str(exc))
            continue
        if digest != sha:
            found.append(f"content {sha[:12]} does not match its sha256")
        elif sha in declared and size != declared[sha]:
            found.append(f"content {sha[:12]} is {size} bytes, its versions say {declared[sha]}")
    return found


def whole_digest(value: bytes, limit: int, sha: str) -> tuple[str, int]:
    """(sha256, length) of a whole stored blob (`F` raw, `Z` zlib), inflated PIECE bytes at a time."""
    if value[:1] == b"F":
        if len(value) - 1 > limit:
            raise FileTooLarge(f"content {sha[:12]} is over {size_text(limit)}")
        return hashlib.sha256(memoryview(value)[1:]).hexdigest(), len(value) - 1
    inflater = zlib.decompressobj()
    digest = hashlib.sha256()
    size = 0
    tail = memoryview(value)[1:]
    try:
        while not inflater.eof:
            piece = inflater.decompress(tail, PIECE)
            tail = memoryview(inflater.unconsumed_tail)
            if not piece and not tail:
                break
            size += len(piece)
            if size > limit:
                raise FileTooLarge(f"content {sha[:12]} inflates to more than {size_text(limit)}")
            digest.update(piece)
    except zlib.error as exc:
        raise CorruptData(f"content {sha[:12]} cannot be decompressed") from exc
    if not inflater.eof:
        raise CorruptData(f"content {sha[:12]} is cut off")
    return digest.hexdigest(), size


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
        batch.put(_store_of(record), key_of(record), record.to_json())
    batch.put("meta", "state", history.meta.to_json())
    return batch


def _store_of(record: Entry | Version | Commit | Turn) -> str:
    return next(store for store, kind in RECORDS.items() if isinstance(record, kind))


def key_of(record: Entry | Version | Commit | Turn) -> str:
    if isinstance(record, Entry):
        return entry_key(record.id)
    if isinstance(record, Version):
        return record.key
    if isinstance(record, Commit):
        return commit_key(record.number)
    return record.turn
