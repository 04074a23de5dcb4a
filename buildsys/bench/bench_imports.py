"""`import_peak`: the memory an import takes against what it brings in, on a corpus of hostile zips
(buildsys/testing/import_bombs.py), on CPython: tracemalloc's peak of the Python allocations while one
`Workspace.import_zip` runs on MemoryStorage (where inflated bytes, dulwich's objects and the stored
values live; not the interpreter's own overhead).

- imported ones: value = the peak in MB, floor = the distinct content the workspace then holds in MB
  (a blob named at 60 paths counts once: it is held and stored once), goal peak ≤ 2× floor;
- refused ones: value = milliseconds until refused (the peak in MB in the goal column), goal ≤ 1 s;
- `import_peak` itself: the imported case with the highest ratio (peak / content kept).
"""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from collections.abc import Callable

from agentlite.workspace import MemoryStorage, Workspace, WorkspaceError, git_import  # dulwich loaded ahead
from buildsys.bench.bench_figure import Figure
from buildsys.testing.import_bombs import HistoryFile, deflate_zip, git_zip, history_zip, zeros_zlib

MB = 1024 * 1024


def _text(size: int) -> bytes:
    """Source-like text that compresses like code (not a run of zeros)."""
    line = b"export const value%06d = compute('%06d');\n"
    return b"".join(line % (n, n * 7 % 999_983) for n in range(size // len(line % (0, 0)) + 1))[:size]


CORPUS: dict[str, Callable[[], bytes]] = {
    "git_blob_60_paths": lambda: git_zip(8 * MB, 60),
    "history_8mb_file": lambda: history_zip(HistoryFile(content=_text(8 * MB))),
    "git_blob_450_paths": lambda: git_zip(8 * MB, 450),
    "history_deflate_bomb": lambda: history_zip(
        HistoryFile(content=b"", declared=0, stored=b"Z" + zeros_zlib(1024 * MB))
    ),
    "zip_lying_member": lambda: deflate_zip(1024 * MB, declared=1000),
}


async def _measure(data: bytes) -> tuple[float, float, float | None]:
    """(peak MB, ms, distinct content held in MB or None when refused)."""
    ws = await Workspace.open(MemoryStorage())
    tracemalloc.start()
    start = time.perf_counter()
    try:
        await ws.import_zip(data)
        held: float | None = (
            sum(
                {
                    e["sha256"]: e["size"]
                    for e in await ws.list("/", recursive=True, details=True)
                    if e["kind"] == "file"
                }.values()
            )
            / MB
        )
    except WorkspaceError:
        held = None
    elapsed = (time.perf_counter() - start) * 1000
    peak = tracemalloc.get_traced_memory()[1] / MB
    tracemalloc.stop()
    return peak, elapsed, held


def import_peak() -> list[Figure]:
    assert git_import.REGULAR  # loaded before measuring, as the page loads dulwich before a git import
    figures = []
    for name, make in CORPUS.items():
        data = make()
        peak, elapsed, held = asyncio.run(_measure(data))
        size = f"{len(data) / 1024:.0f} KB zip"
        if held is None:
            figures.append(
                Figure(
                    f"import_peak_{name}",
                    elapsed,
                    "ms",
                    None,
                    1,
                    f"refused ≤ 1000 ms ({size}, peak {peak:.1f} MB)",
                )
            )
        else:
            figures.append(Figure(f"import_peak_{name}", peak, "MB", held, 1, f"≤ 2× floor ({size})"))
    return [_worst(figures), *figures]


def _worst(figures: list[Figure]) -> Figure:
    """`import_peak` itself: the imported case with the highest peak against what it keeps."""
    kept = [f for f in figures if f.floor]
    worst = max(kept, key=lambda f: f.ratio or 0.0)
    return Figure("import_peak", worst.value, "MB", worst.floor, 1, f"≤ 2× floor (worst: {worst.name})")
