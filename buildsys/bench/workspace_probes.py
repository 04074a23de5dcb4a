"""The workspace benchmarks themselves, run inside Pyodide on IndexedDB by bench_workspace (and on
MemoryStorage by the unit tests). Imports only the standard library and agentlite, because the bench
page loads this file into Pyodide as it is.

Each probe gets a function that opens a fresh, empty storage and returns one figure as a dict
`{value, unit, floor, runs, goal}` (floor None when the goal is absolute).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import random
import re
import statistics
import time
import tracemalloc
import zipfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from agentlite.workspace import StorageBackend, Workspace, WorkspaceError
from agentlite.workspace.query import Budget
from agentlite.workspace.storage import WORKSPACE_STORES

try:  # the bench page writes them beside this file; in a checkout they are modules of buildsys
    import handoff_probes  # type: ignore[import-not-found]
    import import_bombs  # type: ignore[import-not-found]
    import stage_probes  # type: ignore[import-not-found]
except ImportError:
    from buildsys.bench import handoff_probes, stage_probes
    from buildsys.testing import import_bombs

Fresh = Callable[[], Awaitable[StorageBackend]]
BENCH_DB = "agentlite-bench"
RUNS = 5


@dataclass(frozen=True)
class Sizes:
    search_files: int = 2000
    search_file_bytes: int = 10_000  # 2,000 x 10 KB = 20 MB
    growth_file_bytes: int = 1_000_000
    growth_edits: int = 100
    undo_files: int = 1000  # DESIGN's goal: a 1,000-file turn
    oldest_versions: int = 100
    oldest_file_bytes: int = 100_000
    git_versions: int = 1000  # the git_export: 1,000 versions over 200 files
    git_files: int = 200
    import_blob_bytes: int = 8 * 1024 * 1024  # import_peak: an 8 MB blob at 60 paths, an 8 MB history file
    import_copies: int = 60
    worst_seconds: float = 5.0  # search_worst: when a search stops itself (query.SEARCH_SECONDS)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _figure(value: float, unit: str, floor: float | None, runs: int, goal: str) -> dict[str, Any]:
    return {"value": value, "unit": unit, "floor": floor, "runs": runs, "goal": goal}


def _lines(rng: random.Random, size: int, tag: str) -> str:
    """Source-like text: lines of words and hex tokens (compresses about 2x, like real code at best)."""
    out: list[str] = []
    total = 0
    while total < size:
        line = f"{tag} const v{rng.randrange(10**6)} = compute('{rng.getrandbits(64):016x}');\n"
        out.append(line)
        total += len(line)
    return "".join(out)


def _zip(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for path, text in files.items():
            archive.writestr(f"files{path}", text)
    return buffer.getvalue()


async def search(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """Search over the workspace against plain `re` over the same strings in memory."""
    rng = random.Random(1)
    files = {
        f"/src/m{i // 100}/f{i}.ts": _lines(rng, sizes.search_file_bytes, f"// file {i}")
        for i in range(sizes.search_files)
    }
    storage = await fresh()
    await (await Workspace.open(storage)).import_zip(_zip(files))
    ws = await Workspace.open(storage)  # a cold start: contents are read from storage by the first search
    query = r"compute\('ab[0-9a-f]{2}"
    ours, floor = [], []
    pattern = re.compile(query)
    for _ in range(RUNS + 1):
        start = time.perf_counter()
        found = await ws.search(query, regex=True, max_results=100_000)
        ours.append(_ms(start))
        start = time.perf_counter()
        plain = sum(1 for text in files.values() for _match in pattern.finditer(text))
        floor.append(_ms(start))
        if len(found.hits) != plain:
            raise AssertionError(f"search found {len(found.hits)} hits, re found {plain}")
    warm, warm_floor = ours[1:], floor[1:]
    return _figure(statistics.median(warm), "ms", statistics.median(warm_floor), RUNS, "≤ 3× floor")


# The hostile corpus of search_worst: texts that make a backtracking regex slow, and (query, regex,
# include) triples an attacker could send. Each one either is refused at once or stops itself.
HOSTILE_TEXTS = {
    "/hostile/a40.txt": "a" * 40 + "\n",
    "/hostile/one_line.txt": "a" * 200_000,
    "/hostile/long_lines.txt": ("a" * 3000 + "\n") * 300,
    "/hostile/blank_lines.txt": " \n" * 100_000,
    "/hostile/foo.txt": "foo" * 50_000,
    "/hostile/words.txt": ("word " * 400 + "\n") * 500,
}
HOSTILE_QUERIES = [
    ("(a+)+b", True, ""),
    ("(a|a)*b", True, ""),
    ("(a*)*b", True, ""),
    ("(.*a){20}", True, ""),
    (r"\w+\(", True, ""),
    ("a*a*b", True, ""),
    ("a*a*a*b", True, ""),
    (".*foo.*bar", True, ""),
    (r"\s*x", True, ""),
    (r"(?=.*x)y", True, ""),
    ("a{1000}b", True, ""),
    ("A" * 3000 + "b", False, ""),
    ("zzz", False, "**/" * 30 + "x"),
    ("zzz", False, "/".join(["**"] * 30) + "/" + "a*" * 20 + "b"),
    ("zzz", False, "*a" * 40 + "*b"),
    ("zzz", False, "{a,b}" * 30),
    ("zzz", False, "{" * 10 + "a" + "}" * 10),
]


async def search_worst(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """The longest the event loop waits while one search runs over the hostile corpus (a heartbeat task
    notes each turn it gets), refusals included, beside 2,000 files in folders 12 deep for the globs to
    walk; the longest whole call is in the goal column. No floor, goal ≤ 1 s."""
    deep = "/".join(f"d{level}" for level in range(12))
    files = {f"/deep/{deep}/m{i % 50}/file{i}.ts": f"// {i}\n" for i in range(sizes.search_files)}
    storage = await fresh()
    await (await Workspace.open(storage)).import_zip(_zip({**files, **HOSTILE_TEXTS}))
    ws = await Workspace.open(storage)
    await ws.search("warm the texts")
    held, whole, slowest = 0.0, 0.0, ""
    for query, regex, include in HOSTILE_QUERIES:
        for _ in range(3):
            budget = Budget(seconds=sizes.worst_seconds)
            search = ws.search(
                query, regex=regex, case_sensitive=False, include=include or None, budget=budget
            )
            gap, took = await _held_while(search)
            whole = max(whole, took)
            if gap > held:
                held, slowest = gap, (include or query)[:40]
    return _figure(held, "ms", None, 3, f"≤ 1000 ms held; slowest: {slowest!r}; longest call {whole:.0f} ms")


async def _held_while(work: Awaitable[Any]) -> tuple[float, float]:
    """(the longest gap between turns of a heartbeat task while `work` runs, the whole time), in ms."""
    beats = [time.perf_counter()]
    done = False

    async def heartbeat() -> None:
        while not done:
            await asyncio.sleep(0)
            beats.append(time.perf_counter())

    beat = asyncio.ensure_future(heartbeat())
    start = time.perf_counter()
    with contextlib.suppress(WorkspaceError):  # refused: a tool error for the model
        await work
    end = time.perf_counter()
    done = True
    await beat
    beats.append(end)
    return max(b - a for a, b in itertools.pairwise(beats)) * 1000, (end - start) * 1000


async def stored_bytes(storage: StorageBackend) -> int:
    total = 0
    for store in WORKSPACE_STORES:
        for key, value in await storage.scan(store):
            total += len(key) + len(value if isinstance(value, bytes) else value.encode("utf-8"))
    return total


def _edited(text: str, rng: random.Random, index: int) -> str:
    """`text` with one line (chosen at random) replaced."""
    lines = text.splitlines(keepends=True)
    lines[rng.randrange(len(lines))] = f"// edit {index}: {rng.getrandbits(64):016x}\n"
    return "".join(lines)


async def history_growth(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """Everything stored after a file and 100 one-line edits of it, against one copy of the file."""
    rng = random.Random(2)
    text = _lines(rng, sizes.growth_file_bytes, "//")
    storage = await fresh()
    ws = await Workspace.open(storage)
    await ws.write("/big.ts", text)
    for index in range(sizes.growth_edits):
        text = _edited(text, rng, index)
        await ws.write("/big.ts", text)
    if len(await ws.history("/big.ts")) != sizes.growth_edits + 1:
        raise AssertionError("history_growth: a version is missing")
    copy = len(text.encode("utf-8"))
    return _figure(await stored_bytes(storage) / 1e6, "MB", copy / 1e6, 1, "≤ 2× floor (one copy)")


async def undo_turn(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """Undo of one agent turn that changed 1,000 files (each undo is itself undone by the next run)."""
    rng = random.Random(3)
    originals = {f"/app/f{i}.ts": _lines(rng, 2000, f"// {i}") for i in range(sizes.undo_files)}
    storage = await fresh()
    ws = await Workspace.open(storage)
    await ws.import_zip(_zip(originals))
    for path, text in originals.items():
        await ws.write(path, text.replace("compute", "evaluate"), turn="bench-turn", author="agent")
    times, turn = [], "bench-turn"
    for _ in range(RUNS):
        start = time.perf_counter()
        change = await ws.undo_turn(turn)
        times.append(_ms(start))
        if len(change.versions) != sizes.undo_files or change.skipped:
            raise AssertionError(f"undo_turn changed {len(change.versions)} files, skipped {change.skipped}")
        turn = change.turn
    return _figure(statistics.median(times), "ms", None, RUNS, "≤ 500 ms")


async def read_oldest(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """Reading version 1 of 100 against reading the newest, each from storage (an empty cache)."""
    rng = random.Random(4)
    text = _lines(rng, sizes.oldest_file_bytes, "//")
    first = text
    storage = await fresh()
    ws = await Workspace.open(storage)
    await ws.write("/f.ts", text)
    for index in range(sizes.oldest_versions - 1):
        text = _edited(text, rng, index)
        await ws.write("/f.ts", text)
    oldest, newest = [], []
    for _ in range(RUNS):
        for number, times, expected in ((1, oldest, first), (sizes.oldest_versions, newest, text)):
            cold = await Workspace.open(storage)
            start = time.perf_counter()
            data = await cold.read_version("/f.ts", number)
            times.append(_ms(start))
            if data != expected.encode("utf-8"):
                raise AssertionError(f"read_oldest: version {number} reads wrong")
    return _figure(statistics.median(oldest), "ms", statistics.median(newest), RUNS, "floor: the newest")


async def git_export(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """The workspace as a git repository (a zip with `.git/`): a history of 1,000 versions over 200 files,
    one turn each (the bench page loads dulwich first, as the worker does on first use)."""
    rng = random.Random(5)
    texts = {f"/src/m{i % 10}/f{i}.py": _lines(rng, 2000, f"# {i}") for i in range(sizes.git_files)}
    ws = await Workspace.open(await fresh())
    names = sorted(texts)
    for number in range(sizes.git_versions):
        path = names[number % len(names)]
        texts[path] = _edited(texts[path], rng, number)
        await ws.write(path, texts[path], turn=f"bench-{number}", author="agent")
    times, size = [], 0
    for _ in range(3):
        start = time.perf_counter()
        data, commits = await ws.export_git()
        times.append(_ms(start))
        size = len(data)
        if commits != sizes.git_versions:
            raise AssertionError(f"git_export made {commits} commits, not {sizes.git_versions}")
    return _figure(statistics.median(times), "ms", None, 3, f"≤ 3 s; the zip has {size:,} bytes")


async def _import_peak(fresh: Fresh, data: bytes, held: int) -> dict[str, Any]:
    """tracemalloc's peak while `data` is imported, against the distinct content it brings (`held`)."""
    ws = await Workspace.open(await fresh())
    tracemalloc.start()
    try:
        await ws.import_zip(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return _figure(peak / 2**20, "MB", held / 2**20, 1, f"≤ 2× floor ({len(data) / 1024:.0f} KB zip)")


async def import_peak_git(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """A git working copy whose HEAD names one blob at many paths; floor: the blob (held once)."""
    data = import_bombs.git_zip(sizes.import_blob_bytes, sizes.import_copies)
    return await _import_peak(fresh, data, sizes.import_blob_bytes)


async def import_peak_history(fresh: Fresh, sizes: Sizes) -> dict[str, Any]:
    """A history holding one large source-like file; floor: the file."""
    text = _lines(random.Random(5), sizes.import_blob_bytes, "import").encode()[: sizes.import_blob_bytes]
    data = import_bombs.history_zip(import_bombs.HistoryFile(content=text))
    return await _import_peak(fresh, data, len(text))


PROBES = {
    "import_peak_git": import_peak_git,
    "import_peak_history": import_peak_history,
    "search": search,
    "search_worst": search_worst,
    "history_growth": history_growth,
    "undo_turn": undo_turn,
    "read_oldest": read_oldest,
    "git_export": git_export,
}


async def run(
    names: list[str], fresh: Fresh, sizes: Sizes | None = None, handoff: Any = None, stage: Any = None
) -> dict[str, dict[str, Any]]:
    """The named probes' figures; the hand-off's (handoff_probes) at `handoff` sizes."""
    figures = {}
    for name in names:
        if name in stage_probes.PROBES:
            figures[name] = await stage_probes.PROBES[name](fresh, stage or stage_probes.StageSizes())
        elif name in handoff_probes.PROBES:
            figures[name] = await handoff_probes.PROBES[name](fresh, handoff or handoff_probes.HandoffSizes())
        else:
            figures[name] = await PROBES[name](fresh, sizes or Sizes())
    return figures


async def run_in_browser(names_json: str) -> str:
    """The bench page's entry point: every probe on a fresh IndexedDB database; the figures as JSON."""
    import importlib

    from agentlite.browser.idb_storage import IndexedDBStorage

    idb = importlib.import_module("agentlite_idb")

    async def fresh() -> StorageBackend:
        await idb.destroy(BENCH_DB)
        return await IndexedDBStorage.open(BENCH_DB)

    return json.dumps(await run(json.loads(names_json), fresh))
