"""The problems checker's Python side (web/src/problems/worker/ruff-checks.js) under Node, with the pinned
Ruff web build: an undefined name, a syntax error, the project's rule selection, a change's before."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "ruff_checks_runner.mjs"


def jobs(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return run_node(RUNNER, list(items))


def test_an_undefined_name_and_a_syntax_error() -> None:
    files = {"/a.py": "def f():\n    return missing\n", "/b.py": "def g(:\n    pass\n"}
    (answer,) = jobs({"mode": "check", "files": files, "check": ["/a.py", "/b.py"]})
    assert answer["problems"]["/a.py"] == [[2, 12, "F821", "Undefined name `missing`"]]
    assert answer["problems"]["/b.py"] and answer["problems"]["/b.py"][0][2] == "invalid-syntax"


def test_a_change_answers_before_and_after() -> None:
    _, change = jobs(
        {"mode": "sync", "files": {"/a.py": "import os\n"}},
        {"mode": "change", "files": {"/a.py": "import os\nprint(os.sep)\n"}, "check": ["/a.py"]},
    )
    assert [row[2] for row in change["before"]["/a.py"]] == ["F401"]
    assert change["problems"]["/a.py"] == []


def test_the_projects_selection_is_honoured_and_a_bad_one_falls_back_to_ruffs_defaults() -> None:
    text = "import os\nl = 2\n"
    chosen, refused = jobs(
        {
            "mode": "check",
            "files": {"/a.py": text},
            "check": ["/a.py"],
            "settings": {"lint": {"select": ["E741"]}},
        },
        {"mode": "check", "check": ["/a.py"], "settings": {"lint": {"select": 5}}},
    )
    assert [row[2] for row in chosen["problems"]["/a.py"]] == ["E741"]
    assert [row[2] for row in refused["problems"]["/a.py"]] == ["F401", "E741"]
