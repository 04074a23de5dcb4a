"""The workspace benchmark probes (buildsys/bench/workspace_probes.py) run and check their own results, on
MemoryStorage at a small size; the real figures come from Pyodide on IndexedDB."""

from __future__ import annotations

from agentlite.workspace import MemoryStorage, StorageBackend
from buildsys.bench.workspace_probes import PROBES, Sizes, run
from tests.unit.workspace.helpers import aio

SMALL = Sizes(
    search_files=40,
    search_file_bytes=2000,
    growth_file_bytes=50_000,
    growth_edits=20,
    undo_files=10,
    oldest_versions=10,
    oldest_file_bytes=20_000,
    git_versions=30,
    git_files=6,
    import_blob_bytes=100_000,
    import_copies=5,
    worst_seconds=0.2,
)


async def _fresh() -> StorageBackend:
    return MemoryStorage()


@aio
async def test_every_probe_gives_a_figure() -> None:
    figures = await run(list(PROBES), _fresh, SMALL)
    assert set(figures) == set(PROBES)
    for figure in figures.values():
        assert figure["value"] > 0 and figure["unit"] and figure["runs"] >= 1


@aio
async def test_history_grows_with_the_changes_not_the_file() -> None:
    figure = (await run(["history_growth"], _fresh, SMALL))["history_growth"]
    assert figure["value"] <= 2 * figure["floor"]
