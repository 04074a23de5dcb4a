"""Resource locks: one resource is serialised, reads share, writers are not starved, paths nest, a call
may hold several resources, chats meet here."""

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
        assert locks.held == []

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


async def _entered_together(
    locks: ResourceLocks, first: object, second: object, shared: bool = False
) -> bool:
    """Whether a claim on `second` gets in while one on `first` is held."""
    gate, log = asyncio.Event(), []

    async def hold(resources: object, name: str) -> None:
        async with locks.hold(resources, shared=shared):  # type: ignore[arg-type]
            log.append(name)
            await gate.wait()

    holder = asyncio.ensure_future(hold(first, "first"))
    await until(lambda: "first" in log)
    other = asyncio.ensure_future(hold(second, "second"))
    for _ in range(20):
        await asyncio.sleep(0)
    together = "second" in log
    gate.set()
    await asyncio.gather(holder, other)
    assert log == ["first", "second"]
    return together


def test_a_folder_lock_conflicts_with_a_lock_on_a_file_inside_it() -> None:
    async def scenario() -> list[bool]:
        locks = ResourceLocks()
        return [
            await _entered_together(locks, "/a", "/a/b.txt"),
            await _entered_together(locks, "/a/b.txt", "/a"),
            await _entered_together(locks, "/", "/deep/down/file.md"),
            await _entered_together(locks, "/a", "/ab.txt"),  # a sibling whose name starts alike
            await _entered_together(locks, "/a", "/a/b.txt", shared=True),  # reads still share
            await _entered_together(locks, "sandbox", "/sandbox"),  # only paths nest
        ]

    assert asyncio.run(scenario()) == [False, False, False, True, True, True]


def test_a_call_holds_all_its_resources_at_once() -> None:
    async def scenario() -> list[bool]:
        locks = ResourceLocks()
        move = ("/src/old.ts", "/lib/new.ts")
        return [
            await _entered_together(locks, move, "/lib/new.ts"),  # the destination is held
            await _entered_together(locks, move, "/src"),  # and the source, hierarchically
            await _entered_together(locks, "/lib", move),  # a move waits for its destination's folder
            await _entered_together(locks, move, "/other.ts"),
        ]

    assert asyncio.run(scenario()) == [False, False, False, True]


def test_two_moves_in_opposite_directions_never_wait_for_each_other() -> None:
    locks, done = ResourceLocks(), []

    async def move(source: str, destination: str) -> None:
        async with locks.hold((source, destination)):
            await asyncio.sleep(0)
            done.append(source)

    async def scenario() -> None:
        await asyncio.gather(move("/a", "/b"), move("/b", "/a"), move("/a/x", "/c"))

    asyncio.run(scenario())
    assert sorted(done) == ["/a", "/a/x", "/b"]
    assert locks.held == []


def test_move_file_locks_its_source_and_its_destination() -> None:
    from agentlite.tools.catalog import default_registry

    registry = default_registry()
    move, rename = registry.get("move_file"), registry.get("rename_file")
    assert move is not None and rename is not None
    assert move.resources({"source": "src/a.ts", "destination": "lib/"}) == ("/src/a.ts", "/lib")
    assert rename.resources({"path": "/src/a.ts", "new_name": "b.ts"}) == ("/src/a.ts", "/src/b.ts")
    assert rename.resources({"path": "/src/a.ts", "new_name": "x/b.ts"}) == ("/src/a.ts",)
    assert move.resources({"source": 3}) == ()
