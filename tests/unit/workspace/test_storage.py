"""MemoryStorage: the seam's operations, atomic commits, the guard, and injected failures."""

from __future__ import annotations

import pytest

from agentlite.workspace import Batch, MemoryStorage, StaleState, StorageError, StorageFull
from tests.unit.workspace.helpers import aio


@aio
async def test_get_scan_keys_and_commit() -> None:
    storage = MemoryStorage()
    batch = Batch()
    for key in ("b", "a", "c"):
        batch.put("meta", key, key.upper())
    batch.put("blobs", "x", b"\x00\x01")
    await storage.commit(batch)
    assert await storage.get("meta", "a") == "A"
    assert await storage.get("meta", "zz") is None
    assert await storage.get_many("meta", ["c", "zz", "a"]) == ["C", None, "A"]
    assert await storage.keys("meta") == ["a", "b", "c"]
    assert await storage.scan("meta", "b") == [("b", "B"), ("c", "C")]
    assert await storage.scan("meta", "a", "c") == [("a", "A"), ("b", "B")]
    assert await storage.get("blobs", "x") == b"\x00\x01"
    delete = Batch()
    delete.delete("meta", "a")
    delete.clear("blobs")
    await storage.commit(delete)
    assert await storage.keys("meta") == ["b", "c"]
    assert await storage.keys("blobs") == []


@aio
async def test_unknown_store_is_an_error() -> None:
    with pytest.raises(StorageError):
        await MemoryStorage().get("nope", "k")


@aio
@pytest.mark.parametrize(("kind", "error"), [("io", StorageError), ("quota", StorageFull)])
async def test_failed_commit_stores_nothing(kind: str, error: type[Exception]) -> None:
    storage = MemoryStorage()
    first = Batch()
    first.put("meta", "keep", "1")
    await storage.commit(first)
    storage.fail_commit(kind=kind)  # type: ignore[arg-type]
    batch = Batch()
    for index in range(10):
        batch.put("meta", f"k{index}", "v")
    batch.delete("meta", "keep")
    with pytest.raises(error):
        await storage.commit(batch)
    assert await storage.keys("meta") == ["keep"]
    await storage.commit(batch)  # the fault fired once
    assert await storage.keys("meta") == [f"k{i}" for i in range(10)]


@aio
async def test_lost_ack_stores_then_raises() -> None:
    storage = MemoryStorage()
    storage.fail_commit(after=1, kind="lost_ack")
    ok = Batch()
    ok.put("meta", "a", "1")
    await storage.commit(ok)
    lost = Batch()
    lost.put("meta", "b", "2")
    with pytest.raises(StorageError):
        await storage.commit(lost)
    assert await storage.get("meta", "b") == "2"


@aio
async def test_guard_refuses_a_stale_batch() -> None:
    storage = MemoryStorage()
    batch = Batch(guard=("meta", "state", None))
    batch.put("meta", "state", "v1")
    await storage.commit(batch)
    stale = Batch(guard=("meta", "state", None))
    stale.put("meta", "state", "v2")
    with pytest.raises(StaleState):
        await storage.commit(stale)
    assert await storage.get("meta", "state") == "v1"


def test_batch_size_counts_utf8() -> None:
    batch = Batch()
    batch.put("meta", "k", "é")
    batch.put("blobs", "b", b"123")
    assert batch.size() == 1 + 2 + 1 + 3
