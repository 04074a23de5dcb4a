"""The hand-off benchmark probes (buildsys/bench/handoff_probes.py) run and check their own results, on
MemoryStorage at a small size; the real figures come from Pyodide on IndexedDB."""

from __future__ import annotations

from agentlite.workspace import MemoryStorage, StorageBackend
from buildsys.bench import handoff_probes
from buildsys.bench.workspace_probes import run
from tests.unit.workspace.helpers import aio


async def _fresh() -> StorageBackend:
    return MemoryStorage()


@aio
async def test_each_handoff_probe_gives_a_figure_against_its_floor() -> None:
    figures = await run(list(handoff_probes.PROBES), _fresh, handoff=handoff_probes.small())
    assert set(figures) == {
        "handoff_write",
        "handoff_open",
        "handoff_write_vs_history",
        "handoff_open_vs_history",
    }
    for figure in figures.values():
        assert figure["value"] > 0 and figure["floor"] > 0 and figure["unit"] == "ms"
