"""The storage seam: a few async key-value operations and one atomic multi-put.

Stores are named key spaces (like IndexedDB object stores); keys are strings compared as strings; values
are `str` (JSON) or `bytes` (blobs). `commit(batch)` writes every put, delete and clear of the batch in ONE
transaction: after a failure or a crash either all of it is stored or none of it.

`MemoryStorage` is the tests' backend. It can fail on purpose (`fail_commit`): the Nth commit raises an
I/O error, a quota error, or stores the batch and then raises (a lost acknowledgement), so tests can show
the workspace is never torn. `IndexedDBStorage` (agentlite.browser.idb_storage) is the browser's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from agentlite.workspace.workspace_errors import StaleState, StorageError, StorageFull

Value = str | bytes
WORKSPACE_STORES = ("meta", "entries", "versions", "blobs", "commits", "turns")
APP_STORES = ("chats", "memory", "stage")  # the same database keeps the chat tabs, long-term memory
# and the chats' stages (agentlite.stage)
STORES = WORKSPACE_STORES + APP_STORES  # must match STORES in web/src/agent/worker/idb.js


@dataclass
class Batch:
    """Writes applied together: clears first, then deletes, then puts (a later put of a key wins).

    `guard` = (store, key, expected value or None for absent) is checked inside the transaction; when the
    stored value differs the whole batch is refused with StaleState (another tab wrote first).
    """

    puts: list[tuple[str, str, Value]] = field(default_factory=list)
    deletes: list[tuple[str, str]] = field(default_factory=list)
    clears: list[str] = field(default_factory=list)
    guard: tuple[str, str, Value | None] | None = None

    def put(self, store: str, key: str, value: Value) -> None:
        self.puts.append((store, key, value))

    def delete(self, store: str, key: str) -> None:
        self.deletes.append((store, key))

    def clear(self, store: str) -> None:
        self.clears.append(store)

    def size(self) -> int:
        """Bytes of keys and values written (strings counted as UTF-8)."""
        return sum(len(key.encode()) + _value_size(value) for _store, key, value in self.puts)


class StorageBackend(Protocol):
    async def get(self, store: str, key: str) -> Value | None: ...

    async def get_many(self, store: str, keys: Sequence[str]) -> list[Value | None]:
        """Values in the order of `keys` (None where absent), read in one transaction."""
        ...

    async def keys(self, store: str) -> list[str]:
        """Every key of the store, sorted."""
        ...

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        """(key, value) pairs with start <= key < stop (None: unbounded), sorted by key."""
        ...

    async def commit(self, batch: Batch) -> None:
        """Apply the whole batch atomically; raises StorageFull / StaleState / StorageError."""
        ...

    def lock(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Exclusive across every tab of the app, held around read-modify-write of the workspace."""
        ...

    async def close(self) -> None: ...


FailureKind = Literal["io", "quota", "lost_ack"]


@dataclass
class _Fault:
    at: int  # the commit number (1-based, counted over the storage's lifetime) that fails
    kind: FailureKind


class MemoryStorage:
    """An in-memory StorageBackend with failure injection for tests."""

    def __init__(self) -> None:
        self.data: dict[str, dict[str, Value]] = {name: {} for name in STORES}
        self.commits = 0  # commit attempts so far
        self.faults: list[_Fault] = []
        self._lock = asyncio.Lock()

    def fail_commit(self, after: int = 0, kind: FailureKind = "io") -> None:
        """Make the commit `after` commits from now fail (0: the next one).

        io: nothing is stored, StorageError. quota: nothing is stored, StorageFull. lost_ack: the batch IS
        stored, then StorageError is raised (the caller cannot know which happened).
        """
        self.faults.append(_Fault(self.commits + after + 1, kind))

    def stored_bytes(self, store: str | None = None) -> int:
        names = [store] if store else list(self.data)
        return sum(len(k.encode()) + _value_size(v) for name in names for k, v in self.data[name].items())

    async def get(self, store: str, key: str) -> Value | None:
        return self._store(store).get(key)

    async def get_many(self, store: str, keys: Sequence[str]) -> list[Value | None]:
        data = self._store(store)
        return [data.get(key) for key in keys]

    async def keys(self, store: str) -> list[str]:
        return sorted(self._store(store))

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        data = self._store(store)
        return [
            (key, data[key])
            for key in sorted(data)
            if (start is None or key >= start) and (stop is None or key < stop)
        ]

    async def commit(self, batch: Batch) -> None:
        self.commits += 1
        fault = next((f for f in self.faults if f.at == self.commits), None)
        if batch.guard is not None:
            store, key, expected = batch.guard
            if self._store(store).get(key) != expected:
                raise StaleState("the workspace was changed elsewhere; it was reloaded, try again")
        staged = {name: dict(values) for name, values in self.data.items()}
        for index, (store, key) in enumerate(_operations(batch)):
            if fault is not None and fault.kind != "lost_ack" and index >= _total(batch) // 2:
                self._raise(fault)  # fails midway: `staged` is dropped, nothing reaches self.data
            _apply(staged, batch, store, key)
        if fault is not None and fault.kind != "lost_ack":
            self._raise(fault)
        self.data = staged
        if fault is not None:
            self._raise(fault)

    @contextlib.asynccontextmanager
    async def lock(self) -> AsyncIterator[None]:
        async with self._lock:
            yield

    async def close(self) -> None:
        return None

    def _store(self, store: str) -> dict[str, Value]:
        if store not in self.data:
            raise StorageError(f"unknown store {store!r}")
        return self.data[store]

    def _raise(self, fault: _Fault) -> None:
        self.faults.remove(fault)
        if fault.kind == "quota":
            raise StorageFull("browser storage is full (injected)")
        raise StorageError(f"storage failure (injected: {fault.kind})")


def _operations(batch: Batch) -> list[tuple[str, str]]:
    ops: list[tuple[str, str]] = [(store, "\x00clear") for store in batch.clears]
    ops += [(store, "\x00del:" + key) for store, key in batch.deletes]
    ops += [(store, "\x00put:" + str(index)) for index, (store, _key, _value) in enumerate(batch.puts)]
    return ops


def _total(batch: Batch) -> int:
    return len(batch.clears) + len(batch.deletes) + len(batch.puts)


def _apply(staged: dict[str, dict[str, Value]], batch: Batch, store: str, op: str) -> None:
    if store not in staged:
        raise StorageError(f"unknown store {store!r}")
    if op == "\x00clear":
        staged[store].clear()
    elif op.startswith("\x00del:"):
        staged[store].pop(op[5:], None)
    else:
        _store, key, value = batch.puts[int(op[5:])]
        staged[store][key] = value


def _value_size(value: Value) -> int:
    return len(value) if isinstance(value, bytes) else len(value.encode("utf-8"))
