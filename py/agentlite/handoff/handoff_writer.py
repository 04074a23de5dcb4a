"""Writing a hand-off file: every store of the project's database, its attachments and its settings, in
one zip whose manifest holds the sha256 and size of every other member (docs/handoff-format.md).

Records are read as stored and written as stored (one line each, the value the stored JSON string), and
blobs in their stored form (whole or a delta, compressed already or not), so a 10,000-version history is
a few scans and a zip of members, never a decode. Nothing named like a secret leaves: the settings lose
every key such as `api_key` or `token` (the page strips the key before; this is the second fence), and
the MCP server book never held a token (the page keeps them in memory).
"""

from __future__ import annotations

import hashlib
import io
import time
import zipfile
from typing import Any

from agentlite.handoff.handoff_contents import Handoff
from agentlite.handoff.handoff_format import (
    BLOB_STORE,
    FORMAT,
    MANIFEST,
    RECORD_STORES,
    SCHEMA_VERSION,
    SETTINGS,
    VERSION,
    attachment_member,
    canonical,
    record_lines,
    store_member,
    without_secrets,
)
from agentlite.handoff.handoff_pack import PACK, pack_blobs
from agentlite.workspace.archive import add_member
from agentlite.workspace.storage import StorageBackend

LEVEL = 1  # zlib's: 3x faster than 6, and the file only ~10% larger (its blobs are mostly deltas)


async def write_handoff(
    storage: StorageBackend, name: str, attachments: dict[str, tuple[str, bytes]], settings: dict[str, Any]
) -> bytes:
    """The project in `storage` as one hand-off file."""
    return encode_handoff(await collect_handoff(storage, name, attachments, settings))


async def collect_handoff(
    storage: StorageBackend, name: str, attachments: dict[str, tuple[str, bytes]], settings: dict[str, Any]
) -> Handoff:
    """The project's stores as they are now (the caller holds no lock: each store is one scan)."""
    records: dict[str, list[tuple[str, str]]] = {}
    for store in RECORD_STORES:
        records[store] = [
            (key, value if isinstance(value, str) else value.decode("utf-8"))
            for key, value in await storage.scan(store)
        ]
    blobs = {key: _bytes(value) for key, value in await storage.scan(BLOB_STORE)}
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return Handoff(str(name), created, records, blobs, dict(attachments), without_secrets(dict(settings)))


def encode_handoff(handoff: Handoff) -> bytes:
    """The zip; sets `handoff.size`."""
    members: dict[str, dict[str, Any]] = {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:

        def put(member: str, data: bytes) -> None:
            members[member] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            add_member(archive, member, data, level=LEVEL)

        for store in RECORD_STORES:
            put(store_member(store), record_lines(handoff.records.get(store, [])))
        put(PACK, pack_blobs(handoff.blobs))
        listed = []
        for index, (ident, (mime, data)) in enumerate(sorted(handoff.attachments.items()), 1):
            put(attachment_member(index), data)
            listed.append({"id": ident, "type": mime, "member": attachment_member(index)})
        put(SETTINGS, canonical(handoff.settings))
        add_member(archive, MANIFEST, canonical(_manifest(handoff, members, listed)))
    data = buffer.getvalue()
    handoff.size = len(data)
    return data


def _manifest(
    handoff: Handoff, members: dict[str, dict[str, Any]], attachments: list[dict[str, str]]
) -> dict[str, Any]:
    counts = {store: len(handoff.records.get(store, [])) for store in RECORD_STORES}
    counts[BLOB_STORE] = len(handoff.blobs)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": handoff.name,
        "created": handoff.created,
        "schema": SCHEMA_VERSION,
        "counts": counts,
        "attachments": attachments,
        "members": members,
    }


def _bytes(value: str | bytes) -> bytes:
    return value if isinstance(value, bytes) else value.encode("latin-1")
