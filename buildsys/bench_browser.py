"""Benchmarks that need the real browser: page → agent ready with a warm cache."""

from __future__ import annotations

import tempfile
import time
from typing import Any

from buildsys.bench import Figure, median
from buildsys.common import DIST
from buildsys.serve import StaticServer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_RUNS = 7
# Records the time (ms since navigation) at which the page's ready marker appears.
READY_PROBE = """
new MutationObserver(() => {
  const el = document.querySelector('[data-testid=app][data-state=ready], #state[data-state=ready]');
  if (el && window.__readyAt === undefined) window.__readyAt = performance.now();
}).observe(document, {subtree: true, attributes: true, childList: true});
"""


def persistent_context(playwright: Any, user_dir: str) -> Any:
    """A persistent context: the HTTP cache and V8's compiled-wasm cache survive between pages."""
    return playwright.chromium.launch_persistent_context(
        user_dir, executable_path=CHROMIUM, args=ARGS, headless=True
    )


def time_to_ready(context: Any, url: str) -> float:
    page = context.new_page()
    page.add_init_script(READY_PROBE)
    page.goto(url)
    elapsed = wait_for_value(page, "() => window.__readyAt", 120)
    page.close()
    return float(elapsed)


def wait_for_value(page: Any, getter: str, timeout_s: float) -> Any:
    """Poll `getter` until it returns something other than null/undefined.

    Not page.wait_for_function: its string predicate is eval'd in the page, which the app's CSP refuses."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = page.evaluate(getter)
        if value is not None:
            return value
        page.wait_for_timeout(20)
    raise TimeoutError(f"{getter} still unset after {timeout_s:.0f} s")


def ready_warm() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    app_times: list[float] = []
    bare_times: list[float] = []
    with StaticServer(DIST) as server, sync_playwright() as playwright, tempfile.TemporaryDirectory() as user:
        context = persistent_context(playwright, user)
        app, bare = f"{server.origin}/index.html", f"{server.origin}/bare.html"
        time_to_ready(context, app)  # warm the caches
        time_to_ready(context, bare)
        for _ in range(READY_RUNS):  # interleaved, so drift affects both alike
            bare_times.append(time_to_ready(context, bare))
            app_times.append(time_to_ready(context, app))
        context.close()
    return [
        Figure("ready_warm", median(app_times), "ms", median(bare_times), READY_RUNS, "≤ 1.15× floor"),
    ]
