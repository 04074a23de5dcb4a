"""A warm start for every end-to-end test: the Pyodide memory snapshot a first visit stores, seeded into
each fresh browser context before its test runs (docs/testing.md, "A suite that starts warm").

A first visit boots Pyodide, imports the agent and then makes the snapshot in a worker of its own; a
returning visit restores it (docs/startup.md). Every test used to pay for a first visit. Here one
context of the session makes the snapshot once, and each test's context gets a copy in its Cache
Storage before the app loads, so the app takes the `snapshot` start path a returning user's browser
takes. Everything else stays fresh per test: a new context, its own IndexedDB, localStorage, OPFS and
HTTP cache. The snapshot holds no user state (it is taken before any workspace opens) and is keyed by
build, Pyodide and browser, which the restore checks with the entry's sha256.

Tests about the first visit itself (the fresh start path, making the snapshot) are marked `cold`.
`AGENTLITE_E2E_WARM=0` turns seeding off for the whole run.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, Route

CACHE_NAME = "agentlite-pyodide-snapshot"  # web/src/agent/worker/snapshot-store.js
SEED_PATH = "/__e2e-seed__/snapshot"
SNAPSHOT_WAIT_S = 180

READ_SNAPSHOT = """async ([cacheName, seedUrl]) => {
  const cache = await caches.open(cacheName);
  const [request] = await cache.keys();
  if (!request) return null;
  const response = await cache.match(request);
  if (!response) return null;
  await fetch(seedUrl, { method: "POST", body: await response.arrayBuffer() });
  return { entry: request.url, headers: Object.fromEntries(response.headers) };
}"""

WRITE_SNAPSHOT = """async ([cacheName, seedUrl, entry, headers]) => {
  const bytes = await (await fetch(seedUrl)).arrayBuffer();
  const cache = await caches.open(cacheName);
  await cache.put(entry, new Response(bytes, { headers }));
}"""


def enabled() -> bool:
    return os.environ.get("AGENTLITE_E2E_WARM", "1") != "0"


@dataclass(frozen=True)
class WarmStart:
    """The snapshot one first visit stored: where it lives, its headers (key, sha256) and its bytes."""

    origin: str
    entry: str
    headers: dict[str, str]
    path: Path

    def seed(self, context: BrowserContext, source: str) -> Page:
        """Put the snapshot into `context`'s Cache Storage, as a returning visit finds it, and hand back
        the page that did it, left blank: the test's own page (a second page would cost its start-up).
        `source` serves `path`'s folder over HTTP (a file server beside the app's: fulfilling a route
        with 31 MB through the browser's driver took longer than the cold start it saves)."""
        page = context.new_page()
        try:
            page.goto(f"{self.origin}/build.json")
            url = f"{source}/{self.path.name}"
            page.evaluate(WRITE_SNAPSHOT, [CACHE_NAME, url, self.entry, self.headers])
            page.goto("about:blank")
        except BaseException:
            page.close()
            raise
        return page


def make(browser: Browser, origin: str, folder: Path, context_args: dict[str, object]) -> WarmStart:
    """One first visit in a context of its own, until its snapshot is stored; the snapshot copied out."""
    context = browser.new_context(**context_args)
    path = folder / "snapshot.bin"
    url = origin + SEED_PATH

    def keep(route: Route) -> None:
        path.write_bytes(route.request.post_data_buffer or b"")
        route.fulfill(status=204)

    try:
        context.route(url, keep)
        page = context.new_page()
        page.goto(f"{origin}/index.html")
        page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=180_000)
        deadline = time.monotonic() + SNAPSHOT_WAIT_S
        while (found := page.evaluate(READ_SNAPSHOT, [CACHE_NAME, url])) is None:
            if time.monotonic() > deadline:
                raise RuntimeError("the first visit stored no Pyodide snapshot")
            page.wait_for_timeout(500)
        return WarmStart(origin, found["entry"], found["headers"], path)
    finally:
        context.close()
