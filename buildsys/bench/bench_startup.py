"""A returning visit: page → agent ready with Pyodide restored from the memory snapshot the first visit
stored, against `bare.html` (a worker that boots the Pyodide core only) in the same run, and what the
snapshot costs (`snapshot_bytes`, `snapshot_restore_ms`). docs/startup.md explains the start paths.

One persistent Chromium profile (the HTTP, wasm and Cache Storage survive between pages): a first visit
makes and stores the snapshot, then app and bare loads alternate so drift affects both alike. A run in
which the app did not restore the snapshot fails the benchmark instead of reporting a normal start.
"""

from __future__ import annotations

import tempfile
from typing import Any

from buildsys.bench.bench_browser import READY_PROBE, persistent_context, time_to_ready, wait_for_value
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, say

RUNS = 7
READY_TIMEOUT_S = 120


def agent_worker(page: Any) -> Any:
    """The app's agent worker (polled: it appears a moment after navigation)."""
    for _ in range(600):
        found = [w for w in page.workers if "/worker.js" in w.url]
        if found:
            return found[0]
        page.wait_for_timeout(50)
    raise RuntimeError("the agent worker never started")


def app_visit(context: Any, url: str) -> dict[str, Any]:
    """One visit of the app: ms to ready, the worker's start record, and the snapshot it stored."""
    page = context.new_page()
    page.add_init_script(READY_PROBE)
    page.goto(url)
    ready_ms = float(wait_for_value(page, "() => window.__readyAt", READY_TIMEOUT_S))
    worker = agent_worker(page)
    start = dict(worker.evaluate("self.agentliteStart"))
    stored = dict(worker.evaluate("async () => await self.agentliteSnapshotStored"))
    deferred = dict(worker.evaluate("async () => await self.agentliteDeferred"))
    page.close()
    return {"ready_ms": ready_ms, "start": start, "stored": stored, "deferred": deferred}


def ready_warm() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    visits: list[dict[str, Any]] = []
    bare_times: list[float] = []
    with StaticServer(DIST) as server, sync_playwright() as playwright, tempfile.TemporaryDirectory() as user:
        context = persistent_context(playwright, user)
        app, bare = f"{server.origin}/index.html", f"{server.origin}/bare.html"
        first = app_visit(context, app)  # makes and stores the snapshot, warms the caches
        if not first["stored"].get("stored"):
            raise RuntimeError(f"the first visit stored no snapshot: {first['stored']}")
        time_to_ready(context, bare)
        for _ in range(RUNS):
            bare_times.append(time_to_ready(context, bare))
            visits.append(app_visit(context, app))
        context.close()
    paths = {v["start"]["path"] for v in visits}
    if paths != {"snapshot"}:
        raise RuntimeError(f"a returning visit did not restore the snapshot: {paths}")
    restores = [float(v["start"]["restore_ms"]) for v in visits]
    phases = {
        name: median([v["start"]["timings"][name] for v in visits]) for name in visits[0]["start"]["timings"]
    }
    steps = {
        name: median([v["deferred"]["steps"][name] for v in visits])
        for name in visits[0]["deferred"]["steps"]
    }
    say(f"ready_warm phases (median ms): {phases}; first visit: {first['start']}, stored {first['stored']}")
    say(f"after ready (median ms): {steps}")
    return [
        Figure(
            "ready_warm",
            median([v["ready_ms"] for v in visits]),
            "ms",
            median(bare_times),
            RUNS,
            "≤ 0.5× floor",
        ),
        Figure("snapshot_bytes", first["stored"]["bytes"] / 1e6, "MB", None, 1, "— (cost: Cache Storage)"),
        Figure("snapshot_restore_ms", median(restores), "ms", None, RUNS, "— (part of ready_warm)"),
        Figure(
            "tools_after_ready_ms",
            median([float(v["deferred"]["ms"]) for v in visits]),
            "ms",
            None,
            RUNS,
            "— (after ready_warm; a first message waits for it)",
        ),
    ]
