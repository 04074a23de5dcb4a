"""The workspace benchmarks in the real browser: buildsys/bench/workspace_probes.py runs in Pyodide on
IndexedDB, on a page served beside dist/ (web/bench/workspace.html), one fresh browser per benchmark.

- search: a regex search over 2,000 files / 20 MB in the workspace; floor: plain `re` over the same
  strings in memory, in the same Pyodide (goal ≤ 3×);
- search_worst: the longest one search holds the event loop over a hostile corpus (regexes that backtrack,
  globs that repeat `**/` or braces; goal ≤ 1 s, no floor);
- history_growth: all bytes stored after a 1 MB file and 100 one-line edits; floor: one copy (≤ 2×);
- undo_turn: undo of a turn that changed 1,000 files (goal ≤ 500 ms, no floor);
- read_oldest: reading version 1 of 100 from storage; floor: reading the newest;
- import_peak_git / import_peak_history: tracemalloc's peak in Pyodide while a git zip naming one 8 MB
  blob at 60 paths, or a history with one 8 MB file, is imported; floor: the distinct content (≤ 2×);
- git_export: the workspace as a git repository zip, 1,000 versions over 200 files (goal ≤ 3 s, no floor;
  the zip's bytes are reported beside it, docs/git.md);
- handoff_write / handoff_open: a 1,000-file project with 10,000 versions and 20 chats as one hand-off
  file, and that file opened into a fresh project; floors: the zip export / import of its files
  (buildsys/bench/handoff_probes.py, goal ≤ 1.5×); handoff_write_vs_history / handoff_open_vs_history:
  the same against the zip export / import WITH history of the same project;
- stage_write, keep_turn, review_count: a chat's stage (buildsys/bench/stage_probes.py, docs/stage.md).
"""

from __future__ import annotations

import json
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM
from buildsys.bench.bench_figure import Figure
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, ROOT

NAMES = (
    "import_peak_git",
    "import_peak_history",
    "search",
    "search_worst",
    "history_growth",
    "undo_turn",
    "read_oldest",
    "git_export",
    "handoff_write",
    "handoff_open",
    "handoff_write_vs_history",
    "handoff_open_vs_history",
    "stage_write",
    "keep_turn",
    "review_count",
)
PAGE = "__bench"
FILES = {
    "workspace.html": (ROOT / "web/bench/workspace.html", "text/html"),
    "workspace-bench.js": (ROOT / "web/bench/workspace-bench.js", "text/javascript"),
    "idb.js": (ROOT / "web/src/agent/worker/idb.js", "text/javascript"),
    "workspace_probes.py": (ROOT / "buildsys/bench/workspace_probes.py", "text/plain"),
    "handoff_probes.py": (ROOT / "buildsys/bench/handoff_probes.py", "text/plain"),
    "stage_probes.py": (ROOT / "buildsys/bench/stage_probes.py", "text/plain"),
    "import_bombs.py": (ROOT / "buildsys/testing/import_bombs.py", "text/plain"),
}
# What idb.js imports, at the address its import resolves to from the page's folder.
IMPORTED = {"common/database.js": (ROOT / "web/src/agent/common/database.js", "text/javascript")}
PROBE_TIMEOUT_MS = 600_000  # the probes themselves take minutes on a small machine


def _serve_bench_files(page: Any, origin: str) -> None:
    for name, (path, mime) in FILES.items():
        page.route(f"{origin}/{PAGE}/{name}", _fulfil(path.read_bytes(), mime))
    for name, (path, mime) in IMPORTED.items():
        page.route(f"{origin}/{name}", _fulfil(path.read_bytes(), mime))


def _fulfil(body: bytes, mime: str) -> Any:
    """A route handler of exactly one parameter (Playwright passes more to handlers that take more)."""
    return lambda route: route.fulfill(body=body, content_type=mime)


def run_probes(names: list[str]) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.set_default_timeout(PROBE_TIMEOUT_MS)
        page.on("pageerror", lambda error: print(f"[bench page] {error}"))
        _serve_bench_files(page, server.origin)
        page.goto(f"{server.origin}/{PAGE}/workspace.html")
        page.wait_for_function("window.benchReady === true")
        figures = json.loads(page.evaluate("(names) => window.runProbes(names)", names))
        browser.close()
    return [
        Figure(name, f["value"], f["unit"], f["floor"], f["runs"], f["goal"]) for name, f in figures.items()
    ]


def benchmark(name: str) -> Any:
    """The registry entry for one probe (`python build.py bench --only NAME`)."""
    return lambda: run_probes([name])
