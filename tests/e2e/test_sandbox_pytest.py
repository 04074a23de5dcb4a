"""pytest in the shell sandbox (Chromium): `pytest` and `python -m pytest` over the given files, with
the output and exit code of a desktop run of the same files, only caches written besides, and a real
project's own suites (toolz and parse, pins.toml) giving the same counts as CPython."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from agentlite.tools.shell_files import is_cache
from buildsys.testing import suites
from tests.e2e.test_sandbox import Harness, harness  # noqa: F401  (the fixture)

CALC = {
    "/calc.py": "def add(a, b):\n    return a - b\n",
    "/test_calc.py": (
        "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5\n"
    ),
}
FIRST_USE_MS = 180_000  # the first run starts Pyodide and loads pytest's wheels
# Lines that differ between any two machines: the interpreter, the folder, the time taken.
MACHINE_LINES = re.compile(r"^(platform |rootdir: |cachedir: |configfile: |testpaths: )")
TIME_TAKEN = re.compile(r" in \d+\.\d+s( \(\d+:\d+:\d+\))?")


def desktop(files: dict[str, str], folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The same files run by this machine's CPython pytest, as `pytest ARGS` in a terminal-less shell."""
    for path, text in files.items():
        target = folder / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    # Only pytest itself: this machine's test plugins (playwright, benchmark...) are not in the sandbox.
    env = {"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, env=env)


def comparable(output: str) -> list[str]:
    return [TIME_TAKEN.sub(" in T", line) for line in output.splitlines() if not MACHINE_LINES.match(line)]


def counts(output: str) -> str:
    """The last line's counts, e.g. "192 passed, 1 skipped"."""
    return TIME_TAKEN.sub("", output.strip().splitlines()[-1]).strip("= ")


def test_pytest_reports_like_a_desktop_run_and_leaves_no_cache(harness: Harness, tmp_path: Path) -> None:  # noqa: F811
    first = harness.shell("pytest", CALC, timeout_ms=FIRST_USE_MS)
    assert first["exit_code"] == 1, first["stderr"]
    here = desktop(CALC, tmp_path)
    assert here.returncode == 1
    assert comparable(first["stdout"]) == comparable(here.stdout), first["stdout"] + "\n" + here.stdout
    assert "1 failed, 1 passed" in first["stdout"] and "\x1b[" not in first["stdout"]
    # pytest's cache comes back from the sandbox like any write; shell_files drops it (is_cache)
    assert "/.pytest_cache/v/cache/lastfailed" in first["changed"]
    assert all(is_cache(path) for path in [*first["changed"], *first["created_dirs"]])

    fixed = {**CALC, "/calc.py": "def add(a, b):\n    return a + b\n"}
    again = harness.shell("python -m pytest -q && echo rc=$?", fixed)
    assert again["exit_code"] == 0 and again["stdout"].splitlines()[-1] == "rc=0"
    assert counts(again["stdout"].splitlines()[-2]) == "2 passed"
    assert all(is_cache(path) for path in [*again["changed"], *again["created_dirs"]])

    coloured = harness.shell("pytest -q --color=yes; pytest -q -k nothing; echo rc=$?", fixed)
    assert "\x1b[32m" in coloured["stdout"] and coloured["stdout"].splitlines()[-1] == "rc=5"

    pip = harness.shell("pip install pytest", {})  # shipped now: micropip finds it among the app's wheels
    assert pip["exit_code"] == 0 and pip["stdout"].splitlines()[1].startswith("Requirement already satisfied")


# Each real suite (pins.toml) with the counts CPython gives on this machine.
REAL_SUITES = {"toolz": "191 passed, 2 deselected", "parse": "111 passed, 1 skipped"}


@pytest.mark.parametrize("name", REAL_SUITES)
def test_real_suites_give_the_counts_of_cpython(harness: Harness, tmp_path: Path, name: str) -> None:  # noqa: F811
    files = suites.files(name)
    args = ["-q", *suites.arguments(name)]
    here = desktop(files, tmp_path, *args)
    there = harness.shell(shlex.join(["pytest", *args]), files, timeout_ms=FIRST_USE_MS)
    assert there["exit_code"] == here.returncode == 0, there["stdout"][-2000:] + there["stderr"]
    assert counts(there["stdout"]) == counts(here.stdout) == REAL_SUITES[name]
