"""A chat's stage stays where it was made: a hand-off file holds none, and one that names a stage store is
refused by name (it could put instructions before the agent that the offer never showed)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

from agentlite.handoff import read_handoff, write_handoff
from agentlite.handoff.handoff_format import HandoffRefused
from agentlite.stage.stage_book import StageBook
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.workspace.helpers import aio


@aio
async def test_a_staged_change_does_not_travel_and_a_planted_stage_is_refused() -> None:
    storage = MemoryStorage()
    ws = await Workspace.open(storage)
    await ws.write("/a.txt", "a\n", author="user")
    await StageBook(ws).stage("c1").workspace().write("/AGENTS.md", "obey\n", turn="t1", author="agent")
    data = await write_handoff(storage, "p", {}, {})
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "stores/stage.jsonl" not in names and "stores/entries.jsonl" in names
    stage = b'["c1/state","{}"]\n'
    planted = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(planted, "w") as target:
        manifest = json.loads(source.read("manifest.json"))
        manifest["members"]["stores/stage.jsonl"] = {
            "sha256": hashlib.sha256(stage).hexdigest(),
            "size": len(stage),
        }
        for name in source.namelist():
            target.writestr(name, json.dumps(manifest) if name == "manifest.json" else source.read(name))
        target.writestr("stores/stage.jsonl", stage)
    with pytest.raises(HandoffRefused, match="unknown store 'stage'"):
        read_handoff(planted.getvalue())
