"""Zips an attacker would hand to the import, built in memory from the standard library alone (the unit
tests and `bench_imports` use them; nothing here needs git or dulwich).

- `git_zip`: a git working copy whose HEAD names one blob `copies` times (loose objects, as a fresh
  `git init` stores them), or whose tree names one subtree `fan` times, `depth` levels deep;
- `history_zip`: an exported history holding one file, with its version's declared size, its stored
  blob and the records' consistency each open to being wrong;
- `deflate_zip`: a plain zip whose one member is `size` zero bytes, streamed so that building it never
  holds them; `declared` lets the zip's directory lie about the size.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any

CHUNK = 1024 * 1024
FILE_MODE = b"100644"
TREE_MODE = b"40000"


def zeros_zlib(size: int) -> bytes:
    """zlib of `size` zero bytes, made a megabyte at a time (a gigabyte makes about a megabyte)."""
    packer = zlib.compressobj(9)
    parts = [packer.compress(bytes(min(CHUNK, size - at))) for at in range(0, size, CHUNK)]
    return b"".join(parts) + packer.flush()


class GitObjects:
    """Loose git objects (`.git/objects/xx/yyyy`) by path in the zip."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, kind: bytes, body: bytes, header_size: int | None = None) -> bytes:
        """Store one object; its 20-byte id. `header_size` makes its header lie about its size."""
        head = kind + b" " + str(len(body) if header_size is None else header_size).encode() + b"\0"
        sha = hashlib.sha1(head + body).hexdigest()
        self.files[f".git/objects/{sha[:2]}/{sha[2:]}"] = zlib.compress(head + body, 9)
        return bytes.fromhex(sha)

    def tree(self, items: list[tuple[bytes, bytes, bytes]]) -> bytes:
        """A tree of (mode, name, id) items (git sorts them by name; so do we)."""
        body = b"".join(
            mode + b" " + name + b"\0" + sha for mode, name, sha in sorted(items, key=lambda i: i[1])
        )
        return self.add(b"tree", body)

    def zip(self, root: bytes) -> bytes:
        commit = (
            b"tree " + root.hex().encode() + b"\nauthor a <a@b> 0 +0000\ncommitter a <a@b> 0 +0000\n\nbomb\n"
        )
        head = self.add(b"commit", commit).hex()
        members = {
            ".git/HEAD": b"ref: refs/heads/main\n",
            ".git/config": b"[core]\n\trepositoryformatversion = 0\n",
            ".git/refs/heads/main": head.encode() + b"\n",
            **self.files,
        }
        return zip_members(members)


def git_zip(blob_size: int, copies: int, header_size: int | None = None) -> bytes:
    """HEAD names one blob of `blob_size` zero bytes at `copies` paths (`header_size`: what it declares)."""
    objects = GitObjects()
    blob = objects.add(b"blob", bytes(blob_size), header_size)
    return objects.zip(objects.tree([(FILE_MODE, b"f%05d.bin" % n, blob) for n in range(copies)]))


def git_fan_zip(fan: int, depth: int) -> bytes:
    """A tree naming one subtree `fan` times, `depth` levels deep: fan**depth one-byte files."""
    objects = GitObjects()
    node = objects.tree([(FILE_MODE, b"x", objects.add(b"blob", b"x"))])
    for _level in range(depth):
        node = objects.tree([(TREE_MODE, b"d%02d" % n, node) for n in range(fan)])
    return objects.zip(node)


@dataclass
class HistoryFile:
    """One file's history: its content, how its blob is stored and what its records say."""

    content: bytes = b"hello\n"
    stored: bytes | None = None  # the blob's stored value; default: zlib of the content
    sha: str | None = None  # the blob's key and the records' sha256; default: the content's
    declared: int | None = None  # the version's size; default: the content's length
    paths: tuple[str, ...] = ("/a.txt",)  # one live entry per path (two at one path: a vanishing file)
    parent: int | None = None  # version 1's parent (a missing one when set)
    extra: dict[str, Any] = field(default_factory=dict)


def history_zip(file: HistoryFile) -> bytes:
    sha = file.sha or hashlib.sha256(file.content).hexdigest()
    stored = file.stored if file.stored is not None else b"Z" + zlib.compress(file.content)
    size = len(file.content) if file.declared is None else file.declared
    entries, versions = [], []
    for eid, path in enumerate(file.paths, start=1):
        entries.append(
            {
                "id": eid,
                "path": path,
                "kind": "file",
                "version": 1,
                "live": True,
                "commit": 1,
                "sha256": sha,
                "size": size,
                "binary": False,
                "base": "",
                "chain": 0,
            }
        )
        versions.append(
            {
                "id": eid,
                "version": 1,
                "path": path,
                "kind": "file",
                "op": "create",
                "parent": file.parent,
                "commit": 1,
                "turn": "t1",
                "author": "user",
                "time": 1.0,
                "blob": sha,
                "sha256": sha,
                "size": size,
                "binary": False,
            }
        )
    commit = {
        "number": 1,
        "turn": "t1",
        "author": "user",
        "time": 1.0,
        "changes": [[e["id"], 1] for e in entries],
        "paths": list(file.paths),
        "note": None,
    }
    turn = {"turn": "t1", "author": "user", "time": 1.0, "first": 1, "last": 1, "commits": 1}
    meta = {"next_id": len(entries) + 1, "commit": 1, "schema": 1}
    manifest = {"format": "agentlite-workspace", "schema": 1, "meta": meta}
    members = {
        "history/manifest.json": json.dumps(manifest).encode(),
        "history/entries.jsonl": _lines(entries),
        "history/versions.jsonl": _lines(versions),
        "history/commits.jsonl": _lines([commit]),
        "history/turns.jsonl": _lines([turn]),
        f"history/blobs/{sha}": stored,
    }
    return zip_members(members | file.extra)


def deflate_zip(size: int, declared: int | None = None, name: str = "files/zeros.bin") -> bytes:
    """A zip whose member `name` inflates to `size` zero bytes, streamed; `declared` patches the size
    its local header and central directory state (a lying zip)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive, archive.open(_info(name), "w", force_zip64=True) as out:
        for at in range(0, size, CHUNK):
            out.write(bytes(min(CHUNK, size - at)))
    data = buffer.getvalue()
    if declared is None:
        return data
    return _patch_sizes(data, size, declared)


def _patch_sizes(data: bytes, size: int, declared: int) -> bytes:
    """Every 4-byte little-endian `size` in the headers replaced by `declared` (both under 4 GB)."""
    old, new = size.to_bytes(4, "little"), declared.to_bytes(4, "little")
    return data.replace(old, new)


def _lines(rows: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(row, sort_keys=True, separators=(",", ":")).encode() + b"\n" for row in rows)


def zip_members(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(_info(name), data)
    return buffer.getvalue()


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info
