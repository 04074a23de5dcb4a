"""IndexedDBStorage + web/src/agent/worker/idb.js in real Pyodide under Node, over fake-indexeddb.

Runs where `node` and the npm packages of web/ (Pyodide, and fake-indexeddb from devDependencies) are
installed, as `python build.py` does; AGENTLITE_FAKE_INDEXEDDB may name another fake-indexeddb `auto`
module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FAKE = os.environ.get("AGENTLITE_FAKE_INDEXEDDB") or str(
    ROOT / "web/node_modules/fake-indexeddb/auto/index.mjs"
)

SCRIPT = textwrap.dedent(
    """
    from agentlite.browser.idb_storage import IndexedDBStorage
    from agentlite.workspace import StaleState, Workspace

    storage = await IndexedDBStorage.open()
    ws = await Workspace.open(storage)
    await ws.write_text("/notes/a.txt", "hé\\n", author="user")
    await ws.write("/bin/x.bin", bytes(range(256)) * 10)
    await ws.write_text("/notes/a.txt", "second")
    assert [h["op"] for h in await ws.history("/notes/a.txt")] == ["create", "write"]
    again = await Workspace.open(await IndexedDBStorage.open())
    assert await again.read_text("/notes/a.txt") == "second"
    assert await again.read_bytes("/bin/x.bin") == bytes(range(256)) * 10
    blobs, versions = await storage.scan("blobs"), await storage.scan("versions")
    assert len(blobs) >= 3 and all(isinstance(k, str) and isinstance(v, bytes) for k, v in blobs)
    assert [k for k, _v in versions] == sorted(k for k, _v in versions) and len(versions) >= 4
    assert all(isinstance(v, str) and v.startswith("{") for _k, v in versions)
    assert await storage.scan("versions", versions[1][0], versions[3][0]) == versions[1:3]
    for i in range(100):
        await ws.write(f"/many/f{i}.txt", f"file {i}\\n" * 50, turn="t1", author="agent")
    assert len((await ws.undo_turn("t1")).versions) == 101
    big = "".join(f"line {i} some text here\\n" for i in range(40000))
    await ws.write("/big.txt", big)
    for i in range(10):
        big = big.replace(f"line {i * 100} ", f"LINE {i * 100} ", 1)
        await ws.write("/big.txt", big)
    fresh = await Workspace.open(await IndexedDBStorage.open())
    assert (await fresh.read_version("/big.txt", 1)).decode().startswith("line 0 ")
    assert await fresh.read_text("/big.txt") == big
    exported = await ws.export_zip(history=True)
    await ws.clear()
    await ws.import_zip(exported)
    assert await ws.export_zip(history=True) == exported
    other = await Workspace.open(await IndexedDBStorage.open())
    await other.write("/other.txt", "x")
    await ws.write("/mine.txt", "y")
    assert {"/mine.txt", "/other.txt"} <= {e["path"] for e in await ws.list("/")}
    from agentlite.workspace import Batch
    stale = Batch(guard=("meta", "state", None))
    stale.put("meta", "x", "1")
    try:
        await storage.commit(stale)
        raise AssertionError("a stale batch was stored")
    except StaleState:
        pass
    assert await storage.get("meta", "x") is None
    import js
    assert "agentlite-reserve" in [d.name for d in await js.indexedDB.databases()]
    from agentlite.workspace import StorageClosed
    await storage.close()
    try:
        await ws.write("/after-close.txt", "x")
        raise AssertionError("a write after close was accepted")
    except StorageClosed:
        pass
    """
)


@pytest.mark.skipif(
    not (
        Path(FAKE).exists()
        and shutil.which("node")
        and (ROOT / "web/node_modules/pyodide/pyodide.mjs").exists()
    ),
    reason="needs node and the npm packages of web/ (pyodide, fake-indexeddb): run `python build.py`",
)
def test_storage_glue_in_pyodide(tmp_path: Path) -> None:
    script = tmp_path / "check.py"
    script.write_text(SCRIPT)
    harness = Path(__file__).with_name("idb_harness.mjs")
    done = subprocess.run(
        ["node", str(harness), FAKE, str(ROOT), str(script)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and "HARNESS OK" in done.stdout, done.stderr[-3000:]
