"""The sandbox's Python driver on CPython: what a `python` command in the shell frame does with argv,
cwd, exit codes, tracebacks and the user's own modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agentlite.sandbox_driver import SandboxFolders

# One CPython per test: a run changes cwd, argv, sys.path and sys.modules as a `python` command does,
# and inside the test process that would leak into every later test (and a nested pytest would share
# its state). The child runs the steps (a run of the driver, or a file written between runs) and
# reports what the runs left behind in a file of its own: stdout and stderr are the user's.
DRIVER_RUNS = """
import json, os, sys
from agentlite.sandbox_driver import run_command
steps, report = json.loads(sys.argv[1]), sys.argv[2]
here = os.getcwd()
library = tuple(
    root for root in {os.path.abspath(p) for p in [*sys.path, sys.prefix, sys.base_prefix] if p}
    if not here.startswith(root)
)  # every folder modules come from on this machine except the run's: what /lib/ is in the frame
path, codes = list(sys.path), []
for step in steps:
    if "write" in step:
        with open(step["write"], "w") as file:
            file.write(step["text"])
    else:
        codes.append(run_command(step["mode"], step["target"], step["argv"], here, library))
mine = [n for n, m in sys.modules.copy().items() if (getattr(m, "__file__", None) or "").startswith(here)]
left = sorted(mine)
with open(report, "w") as file:
    json.dump({"codes": codes, "path_kept": sys.path == path, "modules_left": left}, file)
"""


@dataclass
class Runs:
    codes: list[int | None]
    out: str
    err: str
    path_kept: bool
    modules_left: list[str]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """The run's folder; its report is written beside it, out of the user's files."""
    (tmp_path / "work").mkdir()
    return tmp_path / "work"


def run_steps(workdir: Path, *steps: dict[str, Any]) -> Runs:
    report = workdir.parent / "report.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-c", DRIVER_RUNS, json.dumps(steps), str(report)]
    done = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, timeout=120)
    assert report.exists(), done.stderr[-2000:]
    found = json.loads(report.read_text())
    return Runs(found["codes"], done.stdout, done.stderr, found["path_kept"], found["modules_left"])


def step(mode: str, target: str, argv: list[str]) -> dict[str, Any]:
    return {"mode": mode, "target": target, "argv": argv}


def run(workdir: Path, mode: str, target: str, argv: list[str]) -> Runs:
    return run_steps(workdir, step(mode, target, argv))


def test_code_sees_its_argv_and_cwd(workdir: Path) -> None:
    done = run(workdir, "code", "import os, sys; print(sys.argv, os.getcwd())", ["-c", "x"])
    assert done.codes == [0] and done.out == f"['-c', 'x'] {workdir}\n"


@pytest.mark.parametrize(
    ("code", "status", "stderr"),
    [
        ("raise SystemExit", 0, ""),
        ("raise SystemExit(3)", 3, ""),
        ("import sys; sys.exit('no input given')", 1, "no input given\n"),
    ],
)
def test_system_exit_becomes_the_exit_code(workdir: Path, code: str, status: int, stderr: str) -> None:
    done = run(workdir, "code", code, ["-c"])
    assert done.codes == [status] and done.err == stderr


def test_an_error_prints_the_users_traceback_only(workdir: Path) -> None:
    done = run(workdir, "code", "def f():\n    return 1 / 0\nf()", ["-c"])
    assert done.codes == [1]
    assert done.err.startswith("Traceback (most recent call last):\n")
    assert 'File "<string>", line 3' in done.err and done.err.endswith(
        "ZeroDivisionError: division by zero\n"
    )
    assert "sandbox_driver" not in done.err


def test_a_script_imports_its_neighbours_and_sees_them_change(workdir: Path) -> None:
    (workdir / "app").mkdir()
    (workdir / "app" / "main.py").write_text("import helper, sys\nprint(helper.WORD, sys.argv[1:])\n")
    (workdir / "app" / "helper.py").write_text("WORD = 'first'\n")
    done = run_steps(
        workdir,
        step("file", "app/main.py", ["app/main.py", "-v"]),
        {"write": "app/helper.py", "text": "WORD = 'second'\n"},
        step("file", "app/main.py", ["app/main.py"]),
    )
    assert done.codes == [0, 0] and done.out == "first ['-v']\nsecond []\n"
    assert done.path_kept and done.modules_left == []


def test_a_module_runs_as_main_from_cwd(workdir: Path) -> None:
    (workdir / "tool.py").write_text("import sys\nif __name__ == '__main__':\n    print('main', sys.argv)\n")
    done = run(workdir, "module", "tool", ["tool", "a"])
    assert done.codes == [0] and done.out == f"main [{str(workdir / 'tool.py')!r}, 'a']\n"  # as `python -m`
    assert done.path_kept and done.modules_left == []


def test_the_users_code_keeps_evaluated_annotations(workdir: Path) -> None:
    code = "def f(x: int) -> None: pass\nprint(f.__annotations__['x'] is int)"
    assert run(workdir, "code", code, ["-c"]).out == "True\n"


def pytest_in_driver(workdir: Path, mode: str) -> Runs:
    return run(workdir, mode, "pytest", ["pytest", "-p", "no:cacheprovider"])


def test_pytest_runs_as_its_command_with_a_desktop_runs_exit_code(workdir: Path) -> None:
    (workdir / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (workdir / "test_calc.py").write_text(
        "from calc import add\n\ndef test_zero():\n    assert add(0, 0) == 0\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n"
    )
    failed = pytest_in_driver(workdir, "entry")
    assert failed.codes == [1] and "1 failed, 1 passed" in failed.out, failed.out + failed.err
    assert "assert -1 == 5" in failed.out
    (workdir / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    passed = pytest_in_driver(workdir, "module")
    assert passed.codes == [0] and "2 passed" in passed.out


def test_pytest_never_collects_the_sandboxs_own_folders() -> None:
    plugin = SandboxFolders()
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert plugin.pytest_ignore_collect(Path(f"/lib/python{version}")) is True
    assert plugin.pytest_ignore_collect(Path(f"/lib/python{version}/site-packages/x/test_x.py")) is True
    assert plugin.pytest_ignore_collect(Path("/proc/self")) is True
    assert plugin.pytest_ignore_collect(Path("/lib/test_x.py")) is None  # a workspace folder /lib
    assert plugin.pytest_ignore_collect(Path("/library/test_x.py")) is None
    assert plugin.pytest_ignore_collect(Path("/src/test_x.py")) is None
