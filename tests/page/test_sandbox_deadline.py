"""The sandbox driver's deadline (docs/execution.md, "The watchdog") in Pyodide under Node: the
interpreter the frame runs, with the `sys.monitoring` the guard needs (CPython here may be older).
A guard that failed would loop forever: the subprocess timeout is what fails then."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from agentlite.sandbox_driver import Deadline
from buildsys.common import ROOT

PYODIDE = ROOT / "web" / "node_modules" / "pyodide"
DRIVER = ROOT / "py" / "agentlite" / "sandbox_driver.py"
RUNNER = ROOT / "tests" / "page" / "pyodide_deadline.mjs"

LOOP_IN_FUNCTION = "def spin():\n    while True:\n        pass\nspin()"
CATCHES_EXCEPTION = "try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')"
SWALLOWS_ALL = "while True:\n    try:\n        pass\n    except:\n        pass"
CASES: list[tuple[str, float | None]] = [
    ("while True: pass", 0.3),
    (LOOP_IN_FUNCTION, 0.3),
    (CATCHES_EXCEPTION, 0.3),
    (SWALLOWS_ALL, 0.3),
    ("import time\ntime.sleep(1000)", 0.3),
    ("import time\ntime.sleep(0.01)\nprint('slept')", 30),
    ("print(sum(range(10)))", 30),
    ("import sys\nsys.exit(3)", 30),
    ("import sys\nsys.exit(-1)", 30),
    ("print(6 * 7)", None),
]


@pytest.fixture(scope="module")
def outcomes() -> list[dict[str, object]]:
    node = shutil.which("node")
    if node is None or not (PYODIDE / "pyodide.mjs").exists():
        pytest.fail("node and web/node_modules/pyodide are needed: run `python build.py`")
    args = [node, str(RUNNER), str(PYODIDE), str(DRIVER), json.dumps(CASES)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=240, cwd=ROOT / "web", check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_a_runaway_loop_is_stopped_and_reported_as_timed_out(outcomes: list[dict[str, object]]) -> None:
    assert [o["exit"] for o in outcomes[:5]] == [None] * 5, outcomes
    assert all(o["stdout"] == "" for o in outcomes[:5]), "the user's `except Exception` caught the deadline"


def test_code_within_its_time_runs_as_usual(outcomes: list[dict[str, object]]) -> None:
    assert [(o["exit"], o["stdout"]) for o in outcomes[5:]] == [
        (0, "slept\n"),
        (0, "45\n"),
        (3, ""),
        (-1, ""),
        (0, "42\n"),
    ]


def test_the_guard_leaves_nothing_behind(outcomes: list[dict[str, object]]) -> None:
    assert len(outcomes) == len(CASES) and all(o["tool"] is None for o in outcomes), outcomes


def test_on_cpython_the_guard_restores_sleep() -> None:
    import time

    sleep = time.sleep
    with Deadline(30):
        assert time.sleep is not sleep
    assert time.sleep is sleep
    if sys.version_info >= (3, 12):
        assert sys.monitoring.get_tool(4) is None
