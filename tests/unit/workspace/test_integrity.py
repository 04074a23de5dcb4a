"""`Workspace.check()` finds what a torn store would show, and nothing in a sound one."""

from __future__ import annotations

from agentlite.workspace import Batch, MemoryStorage
from tests.unit.workspace.helpers import aio, open_workspace


async def _filled(storage: MemoryStorage) -> None:
    ws = await open_workspace(storage)
    big = "".join(f"line {i}\n" for i in range(3000))
    await ws.write("/a.txt", big)
    await ws.write("/a.txt", big.replace("line 7\n", "line seven\n"))
    await ws.write("/d/b.txt", "b")
    await ws.delete("/d/b.txt")


async def _drop(storage: MemoryStorage, store: str, key: str) -> None:
    batch = Batch()
    batch.delete(store, key)
    await storage.commit(batch)


@aio
async def test_a_sound_workspace_has_no_problems() -> None:
    storage = MemoryStorage()
    await _filled(storage)
    assert await (await open_workspace(storage)).check() == []


@aio
async def test_a_missing_blob_is_reported() -> None:
    storage = MemoryStorage()
    await _filled(storage)
    ws = await open_workspace(storage)
    first = (await ws.history("/a.txt"))[0]["sha256"]
    await _drop(storage, "blobs", first)
    problems = await (await open_workspace(storage)).check()
    assert problems and all("/a.txt" in p and "cannot be read" in p for p in problems)


@aio
async def test_without_contents_a_missing_blob_is_reported_and_none_is_read() -> None:
    storage = MemoryStorage()
    await _filled(storage)
    ws = await open_workspace(storage)
    first, second = [v["sha256"] for v in (await ws.history("/a.txt"))[:2]]
    batch = Batch()
    batch.put("blobs", second, b"F not the content")  # present, but damaged: not read, not reported
    await storage.commit(batch)
    await _drop(storage, "blobs", first)
    problems = await (await open_workspace(storage)).check(contents=False)
    assert len(problems) == 1 and "/a.txt: version" in problems[0] and "has no content" in problems[0]


@aio
async def test_a_missing_version_record_is_reported() -> None:
    storage = MemoryStorage()
    await _filled(storage)
    version_keys = await storage.keys("versions")
    await _drop(storage, "versions", version_keys[-1])
    problems = await (await open_workspace(storage)).check()
    assert len(problems) == 1 and "do not run from 1" in problems[0]


@aio
async def test_a_head_that_disagrees_with_its_newest_version_is_reported() -> None:
    storage = MemoryStorage()
    await _filled(storage)
    key, value = (await storage.scan("entries"))[0]
    assert isinstance(value, str)
    batch = Batch()
    batch.put("entries", key, value.replace('"live":true', '"live":false'))
    await storage.commit(batch)
    problems = await (await open_workspace(storage)).check()
    assert any("does not match its newest version" in p for p in problems)
