"""Injected storage failures never leave a torn workspace; other tabs' writes are noticed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from agentlite.workspace import Batch, MemoryStorage, StaleState, StorageError, StorageFull
from tests.unit.workspace.helpers import aio, open_workspace, snapshot


@aio
@pytest.mark.parametrize("kind", ["io", "quota"])
async def test_failed_commit_changes_nothing(kind: str) -> None:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    await ws.write("/a.txt", "old")
    before = await snapshot(ws)
    storage.fail_commit(kind=kind)  # type: ignore[arg-type]
    with pytest.raises(StorageFull if kind == "quota" else StorageError) as caught:
        await ws.write("/d/a.txt", "new content")
    assert caught.value.code == ("storage_full" if kind == "quota" else "storage")
    assert await snapshot(ws) == before
    assert await snapshot(await open_workspace(storage)) == before
    assert len(await ws.history("/a.txt")) == 1
    await ws.write("/d/a.txt", "new content")  # the same content again: its blob must be stored now
    assert await (await open_workspace(storage)).read_text("/d/a.txt") == "new content"


@aio
async def test_failed_multi_file_change_is_all_or_nothing() -> None:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    for index in range(20):
        await ws.write(f"/f{index}.txt", f"v{index}", turn="t1", author="agent")
    before = await snapshot(ws)
    storage.fail_commit(kind="io")
    with pytest.raises(StorageError):
        await ws.undo_turn("t1")
    assert await snapshot(ws) == before
    assert await snapshot(await open_workspace(storage)) == before
    await ws.undo_turn("t1")
    assert await snapshot(ws) == {}


@aio
async def test_lost_acknowledgement_is_resolved_by_reloading() -> None:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    await ws.write("/a.txt", "one")
    storage.fail_commit(kind="lost_ack")
    with pytest.raises(StorageError):
        await ws.write("/a.txt", "two")
    assert await ws.read_text("/a.txt") == "two"  # it was stored after all: the next call reloads
    await ws.write("/a.txt", "three")
    assert [h["version"] for h in await ws.history("/a.txt")] == [1, 2, 3]


@aio
async def test_quota_error_message_is_clear() -> None:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    storage.fail_commit(kind="quota")
    with pytest.raises(StorageFull, match="full"):
        await ws.create_folder("/x")


class UnlockedStorage(MemoryStorage):
    """A backend without a cross-tab lock whose calls yield, so two workspaces interleave."""

    def __init__(self) -> None:
        super().__init__()
        self.stale = 0

    async def commit(self, batch: Batch) -> None:
        await asyncio.sleep(0)
        try:
            await super().commit(batch)
        except StaleState:
            self.stale += 1
            raise

    @contextlib.asynccontextmanager
    async def lock(self) -> AsyncIterator[None]:
        yield


@aio
async def test_two_tabs_on_one_database_never_overwrite_each_other() -> None:
    storage = UnlockedStorage()
    tab_a = await open_workspace(storage)
    tab_b = await open_workspace(storage)
    await asyncio.gather(tab_a.write("/a.txt", "from a"), tab_b.write("/b.txt", "from b"))
    assert storage.stale == 1  # one of them found the other's commit and retried
    expected = {"/a.txt": "from a", "/b.txt": "from b"}
    assert await snapshot(await open_workspace(storage)) == expected
    await tab_a.refresh()
    assert await snapshot(tab_a) == expected


@aio
async def test_other_tab_changes_are_seen_before_the_next_change() -> None:
    storage = MemoryStorage()
    tab_a = await open_workspace(storage)
    tab_b = await open_workspace(storage)
    await tab_a.write("/a.txt", "1")
    await tab_b.write("/a.txt", "2")  # tab b reloads first: this is version 2, not a second "create"
    assert [h["op"] for h in await tab_b.history("/a.txt")] == ["create", "write"]
    await tab_a.edit("/a.txt", "2", "3")  # tab a reloads too, and edits the current text
    assert await tab_b.read_text("/a.txt") == "2"
    await tab_b.refresh()
    assert await tab_b.read_text("/a.txt") == "3"


@aio
async def test_schema_from_the_future_is_refused() -> None:
    storage = MemoryStorage()
    batch = Batch()
    batch.put("meta", "state", '{"commit":0,"next_id":1,"schema":99}')
    await storage.commit(batch)
    with pytest.raises(StorageError, match="schema 99"):
        await open_workspace(storage)


@aio
async def test_a_tab_that_reloads_tells_its_listeners() -> None:
    storage = MemoryStorage()
    tab_a = await open_workspace(storage)
    seen: list[dict] = []
    tab_b = await open_workspace(storage, listener=seen.append)
    await tab_a.write("/a.txt", "1")
    await tab_b.refresh()
    assert [event["type"] for event in seen] == ["reload"]
    await tab_b.write("/b.txt", "2")
    assert [event["type"] for event in seen] == ["reload", "commit"]
    change = await tab_b.write("/b.txt", "3", turn="t9")
    assert change.to_dict()["paths"] == ["/b.txt"] and change.to_dict()["turn"] == "t9"
    assert await tab_b.stat("/b.txt") == {
        "path": "/b.txt",
        "kind": "file",
        "version": 2,
        "size": 1,
        "binary": False,
        "sha256": change.versions[0].sha256,
    }
    assert await tab_b.stat("/") == {"path": "/", "kind": "dir"}
    assert await tab_b.stat("/none") is None
