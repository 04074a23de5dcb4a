"""Content-addressed blobs (key = sha256 of the content), stored whole or as a delta on a whole one.

A stored value starts with a tag byte: `F` raw content, `Z` zlib content, `D`/`d` a delta (raw / zlib)
whose first 64 bytes name its base. Every delta's base is a whole blob, so any version reads with at most
two gets and one delta decode, whatever its age. A file's new version is a delta on the base of its
previous version while the deltas written on that base stay under the file's size in total; then it is
stored whole again. So storage grows with the size of the changes (at most ~2x a file per snapshot cycle).
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from agentlite.workspace import delta
from agentlite.workspace.content import sha256
from agentlite.workspace.import_budget import inflate
from agentlite.workspace.records import Entry
from agentlite.workspace.storage import StorageBackend
from agentlite.workspace.workspace_errors import CorruptData, FileTooLarge, size_text

STORE = "blobs"
MIN_DELTA_SIZE = 1024  # smaller files are always stored whole
COMPRESS_FROM = 256
LEVEL = 1  # zlib level: 3x faster than 6 for ~20% more bytes


@dataclass(frozen=True)
class Encoded:
    """How one new content will be stored: `value` None when the blob exists already."""

    sha256: str
    value: bytes | None
    base: str  # "" stored whole, else the base's sha256
    chain: int


class BlobStore:
    def __init__(
        self, storage: StorageBackend, cache_bytes: int = 48 * 1024 * 1024, limit: int | None = None
    ) -> None:
        """`limit`: no content decodes past this many bytes (an imported history's, not yet trusted)."""
        self._storage = storage
        self._limit = limit
        self.known: set[str] = set()
        self._bases: dict[str, str] = {}
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._deltas: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # (sha, base) -> delta ops
        self._cache_size = 0
        self._cache_limit = cache_bytes

    async def load(self) -> None:
        self.known = set(await self._storage.keys(STORE))
        self._bases = {sha: base for sha, base in self._bases.items() if sha in self.known}

    def remember(self, sha: str, data: bytes) -> None:
        """Keep a decoded content in the cache (the workspace knows it already)."""
        if sha in self._cache:
            self._cache.move_to_end(sha)
            return
        if len(data) > self._cache_limit // 4:
            return
        self._cache[sha] = data
        self._cache_size += len(data)
        while self._cache_size > self._cache_limit:
            _old, dropped = self._cache.popitem(last=False)
            self._cache_size -= len(dropped)

    async def read(self, sha: str) -> bytes:
        return (await self.read_many([sha]))[sha]

    async def read_many(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Decoded contents, fetching what is not cached in at most two batched reads."""
        wanted = list(dict.fromkeys(shas))
        result = {sha: self._cache[sha] for sha in wanted if sha in self._cache}
        raw = await self._fetch([sha for sha in wanted if sha not in result])
        bases = {self._base_in(value) for value in raw.values()} - {""}
        base_data = {sha: self._cache[sha] for sha in bases if sha in self._cache}
        base_data.update(
            self._decode_whole(sha, value)
            for sha, value in (await self._fetch(bases - set(base_data))).items()
        )
        for sha, value in raw.items():
            base = self._base_in(value)
            data = self._decode(value, base_data[base]) if base else self._decode_whole(sha, value)[1]
            if sha256(data) != sha:
                raise CorruptData(f"stored content {sha[:12]} does not match its sha256")
            result[sha] = data
            self.remember(sha, data)
        return result

    async def base_of(self, sha: str) -> str:
        """ "" when the blob is stored whole, else its base's sha256."""
        if sha not in self._bases:
            value = (await self._fetch([sha]))[sha]
            self._bases[sha] = self._base_in(value)
        return self._bases[sha]

    def learn(self, bases: dict[str, str | None]) -> None:
        """Blobs stored by another writer of the same storage (a stage): known, with their bases."""
        self.known.update(bases)
        self._bases.update({sha: base for sha, base in bases.items() if base is not None})

    def base_if_known(self, sha: str) -> str | None:
        return self._bases.get(sha)

    async def encode(self, data: bytes, sha: str, previous: Entry | None, pending: dict[str, str]) -> Encoded:
        """The stored form of a new content of the entry `previous` (None for a new file).

        `pending` maps the blobs already encoded for the same commit to their bases.
        """
        if sha in pending:
            return Encoded(sha, None, pending[sha], previous.chain if previous else 0)
        if sha in self.known:
            return Encoded(sha, None, await self.base_of(sha), previous.chain if previous else 0)
        if previous is None or previous.sha256 is None or len(data) < MIN_DELTA_SIZE:
            return self._whole(data, sha)
        known = previous.base if previous.base is not None else await self.base_of(previous.sha256)
        base_sha = known or previous.sha256
        diff = None
        if known:  # the previous version is a delta on the same base: derive from it (cost ~ the edit)
            earlier = await self._delta_to(previous.sha256, base_sha)
            if earlier is not None:
                diff = delta.rebase_edit(earlier, await self.read(previous.sha256), data)
        if diff is None:
            diff = delta.encode(await self.read(base_sha), data)
        chain = (previous.chain if known else 0) + len(diff)
        if len(diff) > len(data) // 2 or chain > len(data):
            return self._whole(data, sha)
        self._remember_delta(sha, base_sha, diff)
        tag, payload = b"D", diff
        if len(diff) >= COMPRESS_FROM:
            packed = zlib.compress(diff, LEVEL)
            if len(packed) < len(diff) * 9 // 10:
                tag, payload = b"d", packed
        return Encoded(sha, tag + base_sha.encode("ascii") + payload, base_sha, chain)

    def _remember_delta(self, sha: str, base: str, diff: bytes) -> None:
        self._deltas[(sha, base)] = diff
        while len(self._deltas) > 256:
            self._deltas.popitem(last=False)

    async def _delta_to(self, sha: str, base: str) -> bytes | None:
        """The delta from `base` to the content `sha` (cached, else as stored), None when not stored so."""
        if (sha, base) not in self._deltas:
            value = (await self._fetch([sha]))[sha]
            if self._base_in(value) != base:
                return None
            self._remember_delta(sha, base, self._payload(value))
        return self._deltas[(sha, base)]

    def stored(self, encoded: Iterable[Encoded]) -> None:
        """The commit that carried these blobs succeeded."""
        for item in encoded:
            self.known.add(item.sha256)
            self._bases[item.sha256] = item.base

    def forget(self) -> None:
        self.known.clear()
        self._bases.clear()

    def _whole(self, data: bytes, sha: str) -> Encoded:
        value = b"F" + data
        if len(data) >= COMPRESS_FROM:
            packed = zlib.compress(data, LEVEL)
            if len(packed) < len(data) * 9 // 10:
                value = b"Z" + packed
        return Encoded(sha, value, "", 0)

    async def _fetch(self, shas: Iterable[str]) -> dict[str, bytes]:
        keys = list(shas)
        if not keys:
            return {}
        values = await self._storage.get_many(STORE, keys)
        result: dict[str, bytes] = {}
        for sha, value in zip(keys, values, strict=True):
            if value is None:
                raise CorruptData(f"the content {sha[:12]} is missing from storage")
            result[sha] = value if isinstance(value, bytes) else value.encode("latin-1")
            self._bases[sha] = self._base_in(result[sha])
        return result

    @staticmethod
    def _base_in(value: bytes) -> str:
        if value[:1] in (b"D", b"d"):
            return value[1:65].decode("ascii")
        if value[:1] in (b"F", b"Z"):
            return ""
        raise CorruptData("a stored blob has an unknown format")

    def _decode_whole(self, sha: str, value: bytes) -> tuple[str, bytes]:
        data = value[1:] if value[:1] == b"F" else self._inflate(value[1:], f"stored content {sha[:12]}", 0)
        if self._limit is not None and len(data) > self._limit:
            raise FileTooLarge(f"stored content {sha[:12]} is over {size_text(self._limit)}")
        self.remember(sha, data)
        return sha, data

    def _decode(self, value: bytes, base: bytes) -> bytes:
        ops = delta.parse(self._payload(value), len(base))
        if self._limit is not None and sum(length for _offset, length, _data in ops) > self._limit:
            raise FileTooLarge(f"a stored delta makes more than {size_text(self._limit)}")
        return b"".join(
            data if offset < 0 else base[offset : offset + length] for offset, length, data in ops
        )

    def _payload(self, value: bytes) -> bytes:
        """The delta ops of a stored delta."""
        if value[:1] == b"D":
            return value[65:]
        return self._inflate(value[65:], "a stored delta", self._limit or 0)

    def _inflate(self, data: bytes, what: str, room: int) -> bytes:
        """`room`: what may come on top of the limit (a delta's ops hold headers besides their bytes)."""
        if self._limit is not None:
            return inflate(data, self._limit + room, what)
        try:
            return zlib.decompress(data)
        except zlib.error as exc:
            raise CorruptData(f"{what} cannot be decompressed") from exc


def whole_value(data: bytes) -> bytes:
    """The stored form of `data` as a whole blob (used by import for verification)."""
    return b"F" + data
