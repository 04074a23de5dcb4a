"""The stage benchmark probes (buildsys/bench/stage_probes.py) run and check their own results, on
MemoryStorage at a small size; the real figures come from Pyodide on IndexedDB."""

from __future__ import annotations

from agentlite.workspace import MemoryStorage, StorageBackend
from buildsys.bench import stage_probes
from buildsys.bench.workspace_probes import run
from tests.unit.workspace.helpers import aio


async def _fresh() -> StorageBackend:
    return MemoryStorage()


@aio
async def test_each_stage_probe_gives_a_figure() -> None:
    figures = await run(list(stage_probes.PROBES), _fresh, stage=stage_probes.small())
    assert set(figures) == {"stage_write", "keep_turn", "review_count"}
    assert figures["stage_write"]["floor"] > 0
    for figure in figures.values():
        assert figure["value"] > 0 and figure["unit"] == "ms"
