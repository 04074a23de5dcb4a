"""The file tree's order (web/src/views/tree-order.js) under Node: each folder's entries, folders first,
then by name, so a folder's rows can be built when it opens; and the folders a path lies in."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

MODULE = (Path(__file__).resolve().parents[2] / "web/src/views/tree-order.js").as_uri()
SCRIPT = """
import { ancestorsOf, groupByParent } from "%s";
const entries = JSON.parse(process.argv[1]);
const groups = Object.fromEntries([...groupByParent(entries)].map(([k, v]) => [k, v.map((e) => e.path)]));
console.log(JSON.stringify({ groups, ancestors: ancestorsOf("/a/b/c.txt"), top: ancestorsOf("/x") }));
"""
ENTRIES = [
    {"path": "/z.txt", "kind": "file"},
    {"path": "/b", "kind": "dir"},
    {"path": "/a", "kind": "dir"},
    {"path": "/a/b.txt", "kind": "file"},
    {"path": "/a/b", "kind": "dir"},
    {"path": "/a/a.txt", "kind": "file"},
    {"path": "/a/b/c.txt", "kind": "file"},
    {"path": "/A.md", "kind": "file"},
]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (as `python build.py` does)")
def test_each_folder_lists_folders_first_then_by_name() -> None:
    run = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT % MODULE, json.dumps(ENTRIES)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found = json.loads(run.stdout)
    assert found["groups"] == {
        "/": ["/a", "/b", "/A.md", "/z.txt"],
        "/a": ["/a/b", "/a/a.txt", "/a/b.txt"],
        "/a/b": ["/a/b/c.txt"],
    }
    assert found["ancestors"] == ["/a", "/a/b"]
    assert found["top"] == []
