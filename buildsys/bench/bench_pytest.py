"""`pytest_sandbox`: a real project's own suite (toolz, ~190 tests, pins.toml `[[suite]]`) run by
`pytest -q` in the shell sandbox of Chromium, warm (Pyodide started and pytest loaded by an earlier
run in the same frame), against the same suite run by `python -m pytest -q` on this machine's CPython
(a fresh process each run, as a desktop run is). The first, cold run is reported apart.

The sandbox is driven through its host on a harness page at the app's origin, as the e2e tests do;
each time is the host's `run()` from the call to the result (files in, results and changes out).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from buildsys.bench.bench_browser import ARGS, CHROMIUM
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, BuildError, say
from buildsys.testing import suites

SUITE = "toolz"
RUNS = 3
RUN_TIMEOUT_MS = 600_000
HARNESS = "__pytest_bench.html"
HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pytest bench</title></head><body>
<script type="module">
import { SandboxHost } from "./sandbox-host.js";
const host = new SandboxHost();
window.timedShell = async (payload, timeoutMs) => {
  const started = performance.now();
  const result = await host.run("shell", payload, timeoutMs);
  const tail = (result.stdout + result.stderr).slice(-600);
  return { ms: performance.now() - started, exit_code: result.exit_code, tail };
};
window.benchReady = true;
</script></body></html>
"""


def pytest_sandbox() -> list[Figure]:
    args = ["-q", *suites.arguments(SUITE)]
    floor = [_cpython_run(suites.folder(SUITE), args) for _ in range(RUNS)]
    times = sandbox_runs(suites.files(SUITE), shlex.join(["pytest", *args]), RUNS + 1)
    cold, warm = times[0], times[1:]
    say(f"pytest_sandbox: cold first run {cold:.0f} ms; warm {[round(w) for w in warm]}; CPython {floor}")
    return [
        Figure("pytest_sandbox", median(warm), "ms", median(floor), RUNS, "≤ 4× floor"),
        Figure("pytest_sandbox_cold", cold, "ms", median(floor), 1, "reported apart"),
    ]


def _cpython_run(folder: Path, args: list[str]) -> float:
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode != 0:
        raise BuildError(f"the {SUITE} suite failed on CPython:\n{proc.stdout[-1000:]}")
    return elapsed


def sandbox_runs(files: dict[str, str], command: str, runs: int) -> list[float]:
    """The times (ms) of `runs` runs of `command` over `files`, one after the other in one frame of one
    page: the first is cold (Pyodide starts, pytest loads), the others warm."""
    from playwright.sync_api import sync_playwright

    payload = {"command": command, "files": files, "cwd": "/"}
    times: list[float] = []
    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_context(service_workers="block").new_page()
        page.route(
            f"{server.origin}/{HARNESS}", lambda route: route.fulfill(content_type="text/html", body=HTML)
        )
        page.goto(f"{server.origin}/{HARNESS}")
        page.wait_for_function("window.benchReady === true", timeout=30_000)
        for _ in range(runs):
            run = page.evaluate("([p, t]) => window.timedShell(p, t)", [payload, RUN_TIMEOUT_MS])
            last = run["tail"].strip().splitlines()[-1:]
            say(f"sandbox: `{command[:60]}` exit code {run['exit_code']}: {' '.join(last)}")
            if run["exit_code"] != 0:
                raise BuildError(f"`{command[:60]}` failed in the sandbox:\n{run['tail']}")
            times.append(float(run["ms"]))
        browser.close()
    return times
