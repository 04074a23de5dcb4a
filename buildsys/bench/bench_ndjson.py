"""NDJSON parser throughput in MB/s (goal ≥ 10 MB/s; a raw `bytes.split(b"\\n")` over the same input
is printed beside it), in Pyodide (the figure of docs/architecture.md) and on CPython (a reference for
profiling). The workload is bench_ndjson_load.py; inside Chromium it runs on a blank page of the
same origin as dist/, with the project's own wheel."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM
from buildsys.bench.bench_figure import Figure
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, ROOT, say

ROUNDS = 7
GOAL = "≥ 10 MB/s"
LOAD_SOURCE = Path(__file__).with_name("bench_ndjson_load.py")
BLANK = "<!doctype html><meta charset='utf-8'><title>ndjson throughput</title>"
# Loads Pyodide and the project's wheel from dist/, imports the workload module and runs it.
RUN_IN_PYODIDE = """async ([source, rounds, dialect]) => {
  const {loadPyodide} = await import("/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({
    indexURL: new URL("/pyodide/", location.href).href,
    lockFileURL: new URL("/pyodide/agentlite-lock.json", location.href).href,
  });
  await pyodide.loadPackage(["agentlite"]);
  pyodide.FS.writeFile("/home/pyodide/bench_ndjson_load.py", source);
  const load = pyodide.pyimport("bench_ndjson_load");
  return {result: load.measure(rounds, dialect), version: pyodide.version};
}"""


def _figure(name: str, measured: dict[str, Any]) -> Figure:
    """Throughput in MB/s of the parser, median over the rounds. The goal is absolute (≥ 10 MB/s):
    the ratio to a bare split is retired (base64 alone costs more than it), so the figure has no floor;
    the split's speed is still printed for reference."""
    megabytes = measured["bytes"] / 1e6
    parser = statistics.median(megabytes / seconds for seconds in measured["parser"])
    split = statistics.median(megabytes / seconds for seconds in measured["floor"])
    say(f"{name}: bare split of the same bytes {split:.0f} MB/s")
    return Figure(name, parser, "MB/s", None, len(measured["parser"]), GOAL)


def in_pyodide(dialect: str = "ndjson") -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    source = LOAD_SOURCE.read_text()
    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.route(
            f"{server.origin}/__bench_ndjson.html", lambda r: r.fulfill(content_type="text/html", body=BLANK)
        )
        page.goto(f"{server.origin}/__bench_ndjson.html")
        page.set_default_timeout(300_000)
        answer = page.evaluate(RUN_IN_PYODIDE, [source, ROUNDS, dialect])
        browser.close()
    return dict(json.loads(answer["result"]))


def ndjson_throughput() -> list[Figure]:
    """Pyodide (the goal's figure), then the same workload on CPython, and the plain-text variant."""
    figures = [_figure("ndjson_throughput", in_pyodide("ndjson"))]
    figures.append(_figure("ndjson_text_throughput", in_pyodide("ndjson-text")))
    figures.append(_figure("ndjson_throughput_cpython", json.loads(on_cpython())))
    return figures


def on_cpython() -> str:
    """The workload on this interpreter, with the package from the source tree."""
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))
    from buildsys.bench import bench_ndjson_load

    return bench_ndjson_load.measure(ROUNDS)
