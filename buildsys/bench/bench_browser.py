"""What the browser benchmarks share: Chromium's launch, a persistent profile, time to ready."""

from __future__ import annotations

import time
from typing import Any

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


def ready_app(playwright: Any, origin: str) -> tuple[Any, Any]:
    """A fresh Chromium (no service worker) and a page of the app at `origin`, ready."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    page = browser.new_context(service_workers="block").new_page()
    page.goto(f"{origin}/index.html")
    page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
    return browser, page


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
