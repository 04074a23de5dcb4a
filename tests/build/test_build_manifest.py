"""The build manifest: one id per set of served files, stable, and blind to derived copies."""

from __future__ import annotations

import json
from pathlib import Path

from buildsys.build import manifest


def make_dist(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def test_same_files_give_the_same_id(tmp_path: Path) -> None:
    a = manifest.write(make_dist(tmp_path / "a", {"index.html": b"x", "pyodide/p.wasm": b"w"}), "314")
    b = manifest.write(make_dist(tmp_path / "b", {"index.html": b"x", "pyodide/p.wasm": b"w"}), "314")
    assert a["build"] == b["build"]
    assert len(a["build"]) == 16


def test_any_changed_byte_or_name_changes_the_id(tmp_path: Path) -> None:
    base = manifest.write(make_dist(tmp_path / "a", {"index.html": b"x", "app.js": b"1"}), "314")["build"]
    edited = manifest.write(make_dist(tmp_path / "b", {"index.html": b"x", "app.js": b"2"}), "314")["build"]
    renamed = manifest.write(make_dist(tmp_path / "c", {"index.html": b"x", "app2.js": b"1"}), "314")["build"]
    assert len({base, edited, renamed}) == 3


def test_derived_copies_and_the_manifest_itself_are_not_hashed(tmp_path: Path) -> None:
    dist = make_dist(tmp_path / "a", {"index.html": b"x"})
    first = manifest.write(dist, "314")
    make_dist(dist, {"index.html.gz": b"gz", "sw.js": b"worker"})
    second = manifest.write(dist, "314")
    assert first["build"] == second["build"]
    assert set(second["files"]) == {"index.html"}
    written = json.loads((dist / "build.json").read_text())
    assert written["files"]["index.html"]["size"] == 1
    assert written["pyodide"] == "314"
