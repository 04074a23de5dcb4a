"""`python build.py test` and `check`: install what the tests need, build, then one gate of
format, lint, types, unit tests and end-to-end tests. Exit code 0 only when everything passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

from buildsys.build import assemble
from buildsys.common import ROOT, BuildError, python, run, say
from buildsys.testing import llama_server, mcp_conformance, page_check

CHROMIUM = Path("/usr/bin/chromium")
REAL_SERVER_TESTS = "tests/e2e/test_real_server.py"  # need the llama-cpp-python server installed
# Two Chromium sessions side by side, a file each at a time (docs/testing.md, "A suite that starts
# warm"): a test mostly waits on its browser, so two of them share the machine's cores well.
E2E_WORKERS = ["-n", "2", "--dist", "loadfile"]
# The unit suites in two processes too (docs/testing.md, "Tests that share nothing"): a test that leans
# on state another left behind, or a collection that differs between processes, fails at once.
UNIT_WORKERS = ["-n", "2"]
# The suites without a browser: the agent's Python, the page's code under Node, the build.
UNIT_SUITES = ["tests/unit", "tests/page", "tests/build"]


def install_test_extras() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    say("installing the test dependencies (pyproject [test] extras)")
    run([python(), "-m", "pip", "install", "-q", "--disable-pip-version-check", *extras], "pip install")


# The browsers of the end-to-end suites: the file each needs, and the Debian package that brings it.
BROWSERS = {
    CHROMIUM: "chromium",
    Path("/usr/bin/firefox-esr"): "firefox-esr",
    Path("/usr/bin/WebKitWebDriver"): "webkit2gtk-driver",  # brings MiniBrowser (WebKitGTK)
    Path("/usr/bin/Xvfb"): "xvfb",  # MiniBrowser has no headless mode
}


def install_browsers() -> None:
    """Install with apt the browsers that are missing (one `apt-get update`, one `apt-get install`)."""
    missing = sorted({package for path, package in BROWSERS.items() if not path.exists()})
    if not missing:
        return
    if shutil.which("apt-get") is None:
        raise BuildError(f"{', '.join(missing)} missing and apt-get is not available: install them")
    say(f"installing {', '.join(missing)} with apt-get (first run on this machine)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *missing]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
            raise BuildError(f"{' '.join(cmd)} failed:\n{tail}")


def _step(name: str, cmd: list[str]) -> bool:
    say(name)
    return subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL).returncode == 0


def static_checks() -> list[str]:
    """ruff format, ruff check, mypy and the page's type check and linter; the names of the failed ones."""
    failed = []
    sources = ["py", "tests", "buildsys", "build.py"]
    if not _step("ruff format --check", [python(), "-m", "ruff", "format", "--check", *sources]):
        failed.append("ruff format")
    if not _step("ruff check", [python(), "-m", "ruff", "check", *sources]):
        failed.append("ruff check")
    if not _step("mypy", [python(), "-m", "mypy"]):
        failed.append("mypy")
    return failed + page_check.page_checks()


def pytest(paths: list[str], extra: list[str]) -> bool:
    return _step("pytest " + " ".join(paths), [python(), "-m", "pytest", *paths, *extra])


def check(extra: list[str]) -> int:
    """The developer's pre-commit gate: static checks and unit tests (no browser)."""
    failed = static_checks()
    if not pytest(UNIT_SUITES, [*UNIT_WORKERS, *extra]):
        failed.append("unit tests")
    return _report(failed)


def install_model_server() -> str | None:
    """Install the real model server of the end-to-end tests; the reason when it cannot be installed.
    A failure does not stop the other tests, but it fails the run (it is never skipped quietly)."""
    try:
        llama_server.install()
    except BuildError as exc:
        say(f"error: the real model server could not be installed: {exc}")
        return str(exc).splitlines()[0]
    return None


def install_mcp_conformance() -> None:
    """The MCP conformance suite; without it its test is skipped with the reason, the rest runs."""
    try:
        mcp_conformance.install()
    except BuildError as exc:
        say(f"warning: the MCP conformance suite could not be installed: {exc}")


def test(extra: list[str]) -> int:
    install_test_extras()
    install_browsers()
    install_mcp_conformance()
    assemble.build()
    server_failure = install_model_server()
    failed = static_checks()
    # Two processes: Playwright's sync API keeps an event loop running in its thread,
    # which would break the unit tests' own asyncio.run() if they shared a process.
    if not pytest(UNIT_SUITES, ["--timeout=300", *UNIT_WORKERS, *extra]):
        failed.append("unit tests")
    if not pytest(["tests/e2e"], ["--timeout=300", *E2E_WORKERS, f"--ignore={REAL_SERVER_TESTS}", *extra]):
        failed.append("end-to-end tests")
    # The real model's tests keep the cores to themselves: its server reads prompts on the CPU.
    if not server_failure and not pytest([REAL_SERVER_TESTS], ["--timeout=300", *extra]):
        failed.append("end-to-end tests with the real model server")
    # Firefox ESR and WebKitGTK (tests/engines): one browser start each, after Chromium's suite.
    if not pytest(["tests/engines"], ["--timeout=900", *extra]):
        failed.append("engine tests (Firefox, WebKit)")
    if server_failure:
        failed.append(f"real model server not installed, {REAL_SERVER_TESTS} not run ({server_failure})")
    return _report(failed)


def _report(failed: list[str]) -> int:
    if failed:
        say("FAILED: " + ", ".join(failed))
        return 1
    say("all checks passed")
    return 0
