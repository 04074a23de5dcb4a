"""The hand-off benchmarks, run inside Pyodide on IndexedDB beside the workspace probes (and on
MemoryStorage by the unit tests). Imports only the standard library and agentlite, because the bench
page loads this file into Pyodide as it is.

The project: 1,000 files written over 10 changes (10,000 versions), 20 chats of 20 messages each.
- handoff_write: the project as one hand-off file; floor: the zip export of its files (no history);
- handoff_open: the file read, verified and opened into a fresh storage; floor: the zip of its files
  imported into a fresh workspace. Goal ≤ 1.5× each (docs/handoff-format.md).
- handoff_write_vs_history / handoff_open_vs_history: the same, against a fairer floor: the zip export
  WITH history of the same project, and its import (the same 10,000 versions, but no chats).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentlite.engine.chats import ChatStore
from agentlite.handoff import open_handoff, read_handoff, write_handoff
from agentlite.workspace import StorageBackend, Workspace

Fresh = Callable[[], Awaitable[StorageBackend]]
RUNS = 3


@dataclass(frozen=True)
class HandoffSizes:
    files: int = 1000
    rounds: int = 10  # each file written this many times: files x rounds versions
    file_bytes: int = 2000
    chats: int = 20
    messages: int = 20


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _text(rng: random.Random, size: int, tag: str) -> str:
    line = f"{tag} const v = compute('{rng.getrandbits(64):016x}');\n"
    return (line * (size // len(line) + 1))[:size]


async def project(storage: StorageBackend, sizes: HandoffSizes) -> Workspace:
    """The benchmark's project in `storage`: every round rewrites every file's last line (one change)."""
    rng = random.Random(7)
    base = {f"/src/p{i % 20}/f{i}.ts": _text(rng, sizes.file_bytes, f"// {i}") for i in range(sizes.files)}
    ws = await Workspace.open(storage)
    for round_ in range(sizes.rounds):
        files = {path: (text + f"// round {round_}\n").encode() for path, text in base.items()}
        await ws.import_files(files, turn=f"round-{round_}")
    chats = ChatStore(storage)
    for index in range(sizes.chats):
        messages = [
            {"id": f"m{n}", "role": "user" if n % 2 == 0 else "assistant", "content": _text(rng, 400, "say")}
            for n in range(sizes.messages)
        ]
        await chats.save({"id": f"c{index}", "title": f"Chat {index}", "messages": messages})
    return ws


async def handoff_write(fresh: Fresh, sizes: HandoffSizes) -> dict[str, Any]:
    return await _write(fresh, sizes, history=False)


async def handoff_write_vs_history(fresh: Fresh, sizes: HandoffSizes) -> dict[str, Any]:
    """As handoff_write, against the zip export WITH history (the same versions, no chats)."""
    return await _write(fresh, sizes, history=True)


async def handoff_open(fresh: Fresh, sizes: HandoffSizes) -> dict[str, Any]:
    return await _open(fresh, sizes, history=False)


async def handoff_open_vs_history(fresh: Fresh, sizes: HandoffSizes) -> dict[str, Any]:
    """As handoff_open, against the import of the zip WITH history into a fresh workspace."""
    return await _open(fresh, sizes, history=True)


async def _write(fresh: Fresh, sizes: HandoffSizes, history: bool) -> dict[str, Any]:
    ws = await project(await fresh(), sizes)
    written, exported, size, floor_size = [], [], 0, 0
    for _ in range(RUNS):
        start = time.perf_counter()
        size = len(await write_handoff(ws.storage, "bench", {}, {}))
        written.append(_ms(start))
        start = time.perf_counter()
        floor_size = len(await ws.export_zip(history=history))
        exported.append(_ms(start))
    goal = f"≤ 1.5× floor; the file has {size:,} bytes, the zip {floor_size:,}"
    return _figure(statistics.median(written), statistics.median(exported), goal)


async def _open(fresh: Fresh, sizes: HandoffSizes, history: bool) -> dict[str, Any]:
    ws = await project(await fresh(), sizes)
    data = await write_handoff(ws.storage, "bench", {}, {})
    floor_zip = await ws.export_zip(history=history)
    versions = len(await ws.storage.keys("versions"))  # the files' and their folders'
    opened, imported = [], []
    for _ in range(RUNS):
        target = await fresh()
        start = time.perf_counter()
        await open_handoff(target, read_handoff(data))
        opened.append(_ms(start))
        if len(await target.keys("versions")) != versions:
            raise AssertionError("handoff_open lost versions")
        floor = await fresh()
        start = time.perf_counter()
        await (await Workspace.open(floor)).import_zip(floor_zip)
        imported.append(_ms(start))
        if history and len(await floor.keys("versions")) != versions:
            raise AssertionError("the history import lost versions")
    return _figure(statistics.median(opened), statistics.median(imported), "≤ 1.5× floor")


def _figure(value: float, floor: float, goal: str) -> dict[str, Any]:
    return {"value": value, "unit": "ms", "floor": floor, "runs": RUNS, "goal": goal}


PROBES = {
    "handoff_write": handoff_write,
    "handoff_open": handoff_open,
    "handoff_write_vs_history": handoff_write_vs_history,
    "handoff_open_vs_history": handoff_open_vs_history,
}


def small() -> HandoffSizes:
    """The sizes the unit tests run the probes at."""
    return HandoffSizes(files=20, rounds=3, file_bytes=300, chats=2, messages=3)
