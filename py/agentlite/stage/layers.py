"""The storage under a stage: a layer of its own over the workspace's storage (docs/stage.md).

`PrefixedStorage` keeps a stage's records in the one `stage` store, under a prefix (`<chat>/<generation>/`),
so a stage is as durable as the workspace: one IndexedDB transaction per change, kept over reloads and
crashes. Contents are shared: blobs go to the workspace's own `blobs` store (content-addressed, so the
same text is stored once, and nothing the agent wrote is lost whether it is kept or not).

`LayeredStorage` shows the layer over the workspace: a record of the layer hides the workspace's record
with the same key, every other record shows through, writes go to the layer only. Entry ids and commit
numbers of a layer start `OFFSET` above the workspace's, so an entry the stage creates never meets one
the workspace creates meanwhile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from agentlite.workspace.records import Meta
from agentlite.workspace.storage import Batch, StorageBackend, Value
from agentlite.workspace.workspace_errors import InvalidArgument, StaleState

STAGE_STORE = "stage"
SHARED = "blobs"  # contents: one store for the workspace and every stage
OFFSET = 1_000_000_000
END = "\U0010ffff"


class PrefixedStorage:
    """One stage's records, kept in the `stage` store of the workspace's storage under `prefix`."""

    def __init__(self, base: StorageBackend, prefix: str) -> None:
        self.base = base
        self.prefix = prefix

    def _key(self, store: str, key: str) -> tuple[str, str]:
        return (store, key) if store == SHARED else (STAGE_STORE, f"{self.prefix}{store}/{key}")

    async def get(self, store: str, key: str) -> Value | None:
        return await self.base.get(*self._key(store, key))

    async def get_many(self, store: str, keys: Sequence[str]) -> list[Value | None]:
        if store == SHARED:
            return await self.base.get_many(store, keys)
        return await self.base.get_many(STAGE_STORE, [self._key(store, k)[1] for k in keys])

    async def keys(self, store: str) -> list[str]:
        if store == SHARED:
            return await self.base.keys(store)
        return [key for key, _value in await self.scan(store)]

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        if store == SHARED:
            return await self.base.scan(store, start, stop)
        head = f"{self.prefix}{store}/"
        rows = await self.base.scan(STAGE_STORE, head + (start or ""), head + stop if stop else head + END)
        return [(key[len(head) :], value) for key, value in rows]

    async def commit(self, batch: Batch) -> None:
        if batch.clears:
            raise InvalidArgument("a stage's stores are never cleared")
        moved = Batch(
            puts=[(*self._key(store, key), value) for store, key, value in batch.puts],
            deletes=[self._key(store, key) for store, key in batch.deletes],
        )
        if batch.guard is not None:
            store, key, expected = batch.guard
            moved.guard = (*self._key(store, key), expected)
        await self.base.commit(moved)

    def lock(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self.base.lock()

    async def close(self) -> None:
        return None


class LayeredStorage:
    """A layer's records over the workspace's: reads see both (the layer's first), writes go to the layer."""

    def __init__(self, top: PrefixedStorage, bottom: StorageBackend) -> None:
        self.top = top
        self.bottom = bottom

    async def get(self, store: str, key: str) -> Value | None:
        if store == SHARED:
            return await self.bottom.get(store, key)
        found = await self.top.get(store, key)
        if found is None and (store, key) == ("meta", "state"):
            return await self._first_meta()
        return found if found is not None else await self.bottom.get(store, key)

    async def _first_meta(self) -> str:
        """A new layer's counters: the workspace's, moved up by OFFSET (written by its first change)."""
        raw = await self.bottom.get("meta", "state")
        meta = Meta.from_json(raw) if raw is not None else Meta()
        return Meta(next_id=meta.next_id + OFFSET, commit=meta.commit + OFFSET).to_json()

    async def get_many(self, store: str, keys: Sequence[str]) -> list[Value | None]:
        if store == SHARED:
            return await self.bottom.get_many(store, keys)
        found = await self.top.get_many(store, keys)
        missing = [key for key, value in zip(keys, found, strict=True) if value is None]
        below = dict(zip(missing, await self.bottom.get_many(store, missing), strict=True)) if missing else {}
        return [
            value if value is not None else below.get(key) for key, value in zip(keys, found, strict=True)
        ]

    async def keys(self, store: str) -> list[str]:
        if store == SHARED:
            return await self.bottom.keys(store)
        return sorted(set(await self.top.keys(store)) | set(await self.bottom.keys(store)))

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        if store == SHARED:
            return await self.bottom.scan(store, start, stop)
        merged = dict(await self.bottom.scan(store, start, stop))
        merged.update(await self.top.scan(store, start, stop))
        return sorted(merged.items())

    async def commit(self, batch: Batch) -> None:
        """Into the layer. The meta guard is checked here against what the layer shows (the caller holds
        the workspace's lock, so nothing commits in between)."""
        if batch.guard is not None:
            store, key, expected = batch.guard
            if await self.get(store, key) != expected:
                raise StaleState("the stage was changed elsewhere; it was reloaded, try again")
            batch = Batch(puts=batch.puts, deletes=batch.deletes, clears=batch.clears)
        await self.top.commit(batch)

    def lock(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self.bottom.lock()

    async def close(self) -> None:
        return None
