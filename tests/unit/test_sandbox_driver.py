"""The sandbox's Python driver on CPython: what a `python` command in the shell frame does with argv,
cwd, exit codes, tracebacks and the user's own modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentlite.sandbox_driver import SandboxFolders, run_command


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the driver changes directory; this puts the test's back afterwards
    return tmp_path


def library(workdir: Path) -> tuple[str, ...]:
    """Every folder modules come from on this machine except the run's: what /lib/ is in the frame."""
    roots = {os.path.abspath(p) for p in [*sys.path, sys.prefix, sys.base_prefix] if p}
    return tuple(root for root in roots if not str(workdir).startswith(root))


def run(workdir: Path, mode: str, target: str, argv: list[str]) -> int:
    return run_command(mode, target, argv, str(workdir), library(workdir))


def test_code_sees_its_argv_and_cwd(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = "import os, sys; print(sys.argv, os.getcwd())"
    assert run(workdir, "code", code, ["-c", "x"]) == 0
    assert capsys.readouterr().out == f"['-c', 'x'] {workdir}\n"


@pytest.mark.parametrize(
    ("code", "status", "stderr"),
    [
        ("raise SystemExit", 0, ""),
        ("raise SystemExit(3)", 3, ""),
        ("import sys; sys.exit('no input given')", 1, "no input given\n"),
    ],
)
def test_system_exit_becomes_the_exit_code(
    workdir: Path, capsys: pytest.CaptureFixture[str], code: str, status: int, stderr: str
) -> None:
    assert run(workdir, "code", code, ["-c"]) == status
    assert capsys.readouterr().err == stderr


def test_an_error_prints_the_users_traceback_only(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(workdir, "code", "def f():\n    return 1 / 0\nf()", ["-c"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'File "<string>", line 3' in err and err.endswith("ZeroDivisionError: division by zero\n")
    assert "sandbox_driver" not in err


def test_a_script_imports_its_neighbours_and_sees_them_change(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / "app").mkdir()
    (workdir / "app" / "main.py").write_text("import helper, sys\nprint(helper.WORD, sys.argv[1:])\n")
    (workdir / "app" / "helper.py").write_text("WORD = 'first'\n")
    path_before = list(sys.path)
    assert run(workdir, "file", "app/main.py", ["app/main.py", "-v"]) == 0
    (workdir / "app" / "helper.py").write_text("WORD = 'second'\n")
    assert run(workdir, "file", "app/main.py", ["app/main.py"]) == 0
    assert capsys.readouterr().out == "first ['-v']\nsecond []\n"
    assert sys.path == path_before and "helper" not in sys.modules


def test_a_module_runs_as_main_from_cwd(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workdir / "tool.py").write_text("import sys\nif __name__ == '__main__':\n    print('main', sys.argv)\n")
    assert run(workdir, "module", "tool", ["tool", "a"]) == 0
    assert capsys.readouterr().out.startswith("main [")
    assert "tool" not in sys.modules


def test_the_users_code_keeps_evaluated_annotations(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = "def f(x: int) -> None: pass\nprint(f.__annotations__['x'] is int)"
    assert run(workdir, "code", code, ["-c"]) == 0
    assert capsys.readouterr().out == "True\n"


# A fresh CPython per run: a pytest nested inside this test run would share its state.
PYTEST_RUN = """
import os, sys
from agentlite.sandbox_driver import run_command
roots = tuple(os.path.abspath(p) for p in [*sys.path, sys.prefix, sys.base_prefix] if p and p != os.getcwd())
sys.exit(run_command(sys.argv[1], "pytest", ["pytest", *sys.argv[2:]], os.getcwd(), roots))
"""


def pytest_in_driver(workdir: Path, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-c", PYTEST_RUN, mode, "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, timeout=120)


def test_pytest_runs_as_its_command_with_a_desktop_runs_exit_code(workdir: Path) -> None:
    (workdir / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (workdir / "test_calc.py").write_text(
        "from calc import add\n\ndef test_zero():\n    assert add(0, 0) == 0\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n"
    )
    failed = pytest_in_driver(workdir, "entry")
    assert failed.returncode == 1 and "1 failed, 1 passed" in failed.stdout, failed.stdout + failed.stderr
    assert "assert -1 == 5" in failed.stdout
    (workdir / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    passed = pytest_in_driver(workdir, "module")
    assert passed.returncode == 0 and "2 passed" in passed.stdout


def test_pytest_never_collects_the_sandboxs_own_folders() -> None:
    plugin = SandboxFolders()
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert plugin.pytest_ignore_collect(Path(f"/lib/python{version}")) is True
    assert plugin.pytest_ignore_collect(Path(f"/lib/python{version}/site-packages/x/test_x.py")) is True
    assert plugin.pytest_ignore_collect(Path("/proc/self")) is True
    assert plugin.pytest_ignore_collect(Path("/lib/test_x.py")) is None  # a workspace folder /lib
    assert plugin.pytest_ignore_collect(Path("/library/test_x.py")) is None
    assert plugin.pytest_ignore_collect(Path("/src/test_x.py")) is None
