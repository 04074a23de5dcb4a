"""Resource locks: one resource is serialised, reads share, writers are not starved, chats meet here."""

from __future__ import annotations

import asyncio

from agentlite.engine.locks import ResourceLocks
from tests.unit.engine.support import until


def test_writes_to_one_resource_are_serialised_and_others_run_freely() -> None:
    locks, log = ResourceLocks(), []

    async def write(resource: str, name: str, gate: asyncio.Event) -> None:
        async with locks.hold(resource):
            log.append(f"{name} in")
            await gate.wait()
            log.append(f"{name} out")

    async def scenario() -> None:
        a, b, c = asyncio.Event(), asyncio.Event(), asyncio.Event()
        tasks = [asyncio.ensure_future(write("/x", "a", a)), asyncio.ensure_future(write("/x", "b", b)),
                 asyncio.ensure_future(write("/y", "c", c))]  # fmt: skip
        await until(lambda: "a in" in log and "c in" in log)
        assert "b in" not in log  # same resource waits
        a.set()
        await until(lambda: "b in" in log)
        b.set()
        c.set()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert log.index("a out") < log.index("b in")


def test_reads_share_a_resource_but_not_with_a_write() -> None:
    locks, log = ResourceLocks(), []
    gate = asyncio.Event()

    async def read(name: str) -> None:
        async with locks.hold("/x", shared=True):
            log.append(f"{name} in")
            await gate.wait()

    async def write() -> None:
        async with locks.hold("/x"):
            log.append("w in")

    async def scenario() -> None:
        tasks = [asyncio.ensure_future(read("r1")), asyncio.ensure_future(read("r2"))]
        await until(lambda: {"r1 in", "r2 in"} <= set(log))
        writer = asyncio.ensure_future(write())
        late = asyncio.ensure_future(read("r3"))
        for _ in range(20):
            await asyncio.sleep(0)
        assert "w in" not in log and "r3 in" not in log  # the waiting writer holds back new readers
        gate.set()
        await asyncio.gather(*tasks, writer, late)
        assert log.index("w in") < log.index("r3 in")

    asyncio.run(scenario())


def test_no_resource_means_no_lock_and_the_table_empties() -> None:
    locks = ResourceLocks()

    async def scenario() -> None:
        async with locks.hold(None), locks.hold(None):
            pass
        async with locks.hold("/a"):
            assert locks.busy("/a")
        assert not locks.busy("/a")
        assert locks._locks == {}

    asyncio.run(scenario())


def test_a_cancelled_waiting_writer_releases_the_readers_behind_it() -> None:
    locks = ResourceLocks()
    gate, entered = asyncio.Event(), []

    async def hold_read() -> None:
        async with locks.hold("/x", shared=True):
            await gate.wait()

    async def write() -> None:
        async with locks.hold("/x"):
            entered.append("w")

    async def late_read() -> None:
        async with locks.hold("/x", shared=True):
            entered.append("r")

    async def scenario() -> None:
        first = asyncio.ensure_future(hold_read())
        await asyncio.sleep(0)
        writer = asyncio.ensure_future(write())
        await asyncio.sleep(0)
        reader = asyncio.ensure_future(late_read())
        await asyncio.sleep(0)
        writer.cancel()
        await until(lambda: "r" in entered)
        gate.set()
        await asyncio.gather(first, reader, return_exceptions=True)

    asyncio.run(scenario())
    assert entered == ["r"]
