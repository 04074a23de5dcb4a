"""The stage benchmarks (docs/stage.md), run inside Pyodide on IndexedDB beside the workspace probes (and
on MemoryStorage by the unit tests). Imports only the standard library and agentlite, because the bench
page loads this file into Pyodide as it is.

- stage_write: a 200-file turn written file by file through a chat's stage; floor: the same writes
  applied to the workspace directly (goal ≤ 1.15×);
- keep_turn: keeping a 1,000-file staged turn whole (goal ≤ 500 ms, like undo_turn);
- review_count: the review of a 200-file staged turn (its rows with +/− counts) as the worker makes it
  for the panel (the panel's own figure, review_open, is measured in the browser).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentlite.stage.stage import Pick
from agentlite.stage.stage_book import StageBook
from agentlite.workspace import StorageBackend, Workspace

Fresh = Callable[[], Awaitable[StorageBackend]]
RUNS = 3


@dataclass(frozen=True)
class StageSizes:
    write_files: int = 200
    keep_files: int = 1000
    file_bytes: int = 2000


def small() -> StageSizes:
    """The sizes the unit tests run the probes at."""
    return StageSizes(write_files=10, keep_files=20, file_bytes=300)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _texts(count: int, size: int, seed: int) -> dict[str, str]:
    rng = random.Random(seed)
    texts = {}
    for index in range(count):
        line = f"// {index} const v = compute('{rng.getrandbits(64):016x}');\n"
        texts[f"/app/m{index % 10}/f{index}.ts"] = (line * (size // len(line) + 1))[:size]
    return texts


async def _workspace(fresh: Fresh, texts: dict[str, str]) -> Workspace:
    ws = await Workspace.open(await fresh())
    await ws.import_files({path: text.encode() for path, text in texts.items()}, turn="setup")
    return ws


async def _write_all(ws: Workspace, texts: dict[str, str], tag: str, turn: str) -> float:
    start = time.perf_counter()
    for path, text in texts.items():
        await ws.write(path, text + f"// {tag}\n", turn=turn, author="agent")
    return _ms(start)


async def stage_write(fresh: Fresh, sizes: StageSizes) -> dict[str, Any]:
    texts = _texts(sizes.write_files, sizes.file_bytes, 11)
    ws = await _workspace(fresh, texts)
    book = StageBook(ws)
    direct, staged = [], []
    for run in range(RUNS):
        direct.append(await _write_all(ws, texts, f"direct {run}", f"direct-{run}"))
        staged.append(
            await _write_all(book.stage(f"chat-{run}").workspace(), texts, f"stage {run}", f"t{run}")
        )
        review = await book.stage(f"chat-{run}").review()
        if review["pending"] != sizes.write_files:
            raise AssertionError(f"stage_write: the stage holds {review['pending']} files")
    if await ws.read_text(next(iter(texts))) != next(iter(texts.values())) + f"// direct {RUNS - 1}\n":
        raise AssertionError("stage_write: the staged writes reached the workspace")
    return _figure(statistics.median(staged), statistics.median(direct), "≤ 1.15× floor (direct writes)")


async def keep_turn(fresh: Fresh, sizes: StageSizes) -> dict[str, Any]:
    texts = _texts(sizes.keep_files, sizes.file_bytes, 12)
    ws = await _workspace(fresh, texts)
    book = StageBook(ws)
    times = []
    for run in range(RUNS):
        stage = book.stage(f"chat-{run}")
        staged = stage.workspace()
        await staged.refresh()
        states = [(staged.tree.file_at(p).id, p, (t + f"// kept {run}\n").encode()) for p, t in texts.items()]
        await staged.set_files(states, turn=f"t{run}", author="agent")
        start = time.perf_counter()
        review = await stage.decide({path: Pick(True) for path in texts})
        times.append(_ms(start))
        if (
            review["pending"]
            or await ws.read_text(next(iter(texts))) != next(iter(texts.values())) + f"// kept {run}\n"
        ):
            raise AssertionError("keep_turn: the turn was not kept whole")
    return _figure(statistics.median(times), None, "≤ 500 ms")


async def review_count(fresh: Fresh, sizes: StageSizes) -> dict[str, Any]:
    texts = _texts(sizes.write_files, sizes.file_bytes, 13)
    ws = await _workspace(fresh, texts)
    stage = StageBook(ws).stage("chat")
    await _write_all(stage.workspace(), texts, "review", "t1")
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        review = await stage.review()
        times.append(_ms(start))
        if len(review["files"]) != sizes.write_files:
            raise AssertionError("review_count: a file is missing from the review")
    return _figure(statistics.median(times), None, "part of review_open's ≤ 300 ms")


def _figure(value: float, floor: float | None, goal: str) -> dict[str, Any]:
    return {
        "value": round(value, 2),
        "unit": "ms",
        "floor": None if floor is None else round(floor, 2),
        "runs": RUNS,
        "goal": goal,
    }


PROBES = {"stage_write": stage_write, "keep_turn": keep_turn, "review_count": review_count}
