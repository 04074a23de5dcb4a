"""Start paths: a returning visit restores Pyodide from the memory snapshot the first visit stored, and
every way the snapshot can be unusable (corrupt, another build, a restore that throws, a store that
throws) ends in a normal start that works, names its path in the progress bar, and stores a fresh
snapshot when the store lets it."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route

from buildsys.bench.bench_startup import agent_worker
from tests.e2e import warm_start
from tests.e2e.conftest import pipe_console, send, wait_ready

# The tests about making and storing the snapshot are `cold` (nothing stored at first); those about a
# stored snapshot going wrong start from the one the harness seeds, which is what a first visit stores.

CACHE = "agentlite-pyodide-snapshot"
ENTRY = "/__pyodide-snapshot__"
# Cache Storage entry of the snapshot: its key header, checksum header and size (null when absent).
READ_ENTRY = """async ([cache, entry]) => {
  const response = await (await caches.open(cache)).match(entry);
  if (!response) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {key: response.headers.get("x-snapshot-key"), sha: response.headers.get("x-snapshot-sha256"),
          size: bytes.length};
}"""
# Rewrites the entry's bytes (`how`: flip one byte, or replace them by 4 KiB of zeros with a matching
# checksum, which passes the store's check and makes Pyodide's restore throw).
REWRITE_ENTRY = """async ([cache, entry, how]) => {
  const store = await caches.open(cache);
  const response = await store.match(entry);
  const headers = Object.fromEntries(response.headers.entries());
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (how === "flip") bytes[bytes.length >> 1] ^= 0xff;
  else {
    bytes = new Uint8Array(4096);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    headers["x-snapshot-sha256"] = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  await store.put(entry, new Response(bytes, {headers}));
}"""
# Prepended to worker.js: a Cache Storage whose every call throws, like a broken profile.
BROKEN_STORE = (
    "Object.defineProperty(self, 'caches', {value: {open: async () => "
    "{ throw new Error('the store is broken'); }}});\n"
)

# Waits (bounded: 60 s) until the worker has started loading the tokenizer, then for the load.
TOKENIZER_LOADED = """async () => {
  for (let i = 0; i < 3000 && !self.agentliteTokenizer; i++) await new Promise((r) => setTimeout(r, 20));
  return await self.agentliteTokenizer;
}"""


def visit(page: Page, origin: str) -> dict[str, Any]:
    """Load the app until ready; the start path it took, and whether it stored a snapshot after."""
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    worker = agent_worker(page)
    start = dict(worker.evaluate("self.agentliteStart"))
    start["stored"] = worker.evaluate("async () => (await self.agentliteSnapshotStored).stored")
    start["bar"] = page.get_attribute("[data-testid=load-progress]", "data-path")
    return start


def entry(page: Page) -> dict[str, Any] | None:
    return page.evaluate(READ_ENTRY, [CACHE, ENTRY])


def stored_snapshot(page: Page, origin: str) -> dict[str, Any]:
    """The stored snapshot the test starts from: seeded by the harness, as a first visit stores it (or,
    with seeding off, made by a first visit)."""
    if warm_start.enabled():
        page.goto(f"{origin}/build.json")
    else:
        visit(page, origin)
    found = entry(page)
    assert found and found["size"] > 1_000_000, "the test's context holds no snapshot"
    return found


def assert_works(page: Page, marker: str) -> None:
    """Python answers: the demo model replies and the workspace keeps a file across visits."""
    page.evaluate("([p, t]) => window.agentlite.vfs.writeText(p, t)", [f"/{marker}.txt", marker])
    assert page.evaluate("(p) => window.agentlite.vfs.readText(p)", f"/{marker}.txt") == marker
    send(page, f"hello {marker}")
    done = page.locator("[data-testid=message][data-role=assistant][data-state=done]").last
    done.wait_for(timeout=60_000)
    assert "demo model" in done.inner_text()


@pytest.mark.cold
def test_a_returning_visit_restores_the_stored_snapshot(page: Page, origin: str) -> None:
    pipe_console(page)
    first = visit(page, origin)
    assert (first["path"], first["bar"], first["stored"]) == ("fresh", "fresh", True)
    stored = entry(page)
    assert stored and stored["size"] > 1_000_000
    assert_works(page, "first")
    second = visit(page, origin)
    assert (second["path"], second["bar"]) == ("snapshot", "snapshot")
    assert "from this browser's snapshot" in (page.text_content("[data-testid=load-progress]") or "")
    assert second["restore_ms"] is not None and second["stored"] is False
    assert page.evaluate("(p) => window.agentlite.vfs.readText(p)", "/first.txt") == "first"
    assert_works(page, "second")


def test_a_corrupt_snapshot_ends_in_a_normal_start_and_a_fresh_snapshot(page: Page, origin: str) -> None:
    pipe_console(page)
    stored_snapshot(page, origin)
    page.evaluate(REWRITE_ENTRY, [CACHE, ENTRY, "flip"])
    start = visit(page, origin)
    assert (start["path"], start["bar"]) == ("fallback", "fallback")
    assert "corrupt" in start["detail"]
    assert "normal start: snapshot corrupt" in (page.text_content("[data-testid=load-progress]") or "")
    assert start["stored"] is True
    assert_works(page, "corrupt")
    assert visit(page, origin)["path"] == "snapshot"  # the fresh snapshot passes the checksum


def test_a_snapshot_of_another_build_ends_in_a_normal_start_and_a_fresh_snapshot(
    page: Page, origin: str
) -> None:
    pipe_console(page)
    old_key = stored_snapshot(page, origin)["key"]
    page.context.route(
        "**/build.json",
        lambda route: route.fulfill(content_type="application/json", body='{"build": "0123456789abcdef"}'),
    )
    start = visit(page, origin)
    assert (start["path"], start["detail"]) == ("fallback", "snapshot of another build")
    assert start["stored"] is True
    new_key = (entry(page) or {})["key"]
    assert new_key != old_key and "0123456789abcdef" in new_key
    assert_works(page, "another")
    assert visit(page, origin)["path"] == "snapshot"


def test_a_restore_that_throws_ends_in_a_normal_start_and_a_fresh_snapshot(page: Page, origin: str) -> None:
    pipe_console(page)
    stored_snapshot(page, origin)
    page.evaluate(REWRITE_ENTRY, [CACHE, ENTRY, "zeros"])
    start = visit(page, origin)
    assert start["path"] == "fallback"
    assert start["detail"].startswith("snapshot restore failed")
    assert start["stored"] is True
    assert_works(page, "restore")
    assert (entry(page) or {})["size"] > 1_000_000
    assert visit(page, origin)["path"] == "snapshot"


@pytest.mark.cold
def test_a_store_that_throws_ends_in_a_normal_start(page: Page, origin: str) -> None:
    pipe_console(page)

    def broken_store(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=BROKEN_STORE + response.text())

    page.context.route("**/worker.js*", broken_store)
    start = visit(page, origin)
    assert start["path"] == "fallback"
    assert "snapshot store failed: the store is broken" in start["detail"]
    assert start["stored"] is False
    assert_works(page, "broken")
    page.context.unroute("**/worker.js*")
    healthy = visit(page, origin)
    assert (healthy["path"], healthy["stored"]) == ("fresh", True)
    assert page.evaluate("(p) => window.agentlite.vfs.readText(p)", "/broken.txt") == "broken"


def test_a_restored_start_that_fails_later_starts_again_normally(page: Page, origin: str) -> None:
    pipe_console(page)
    stored_snapshot(page, origin)
    refused: list[str] = []

    def refuse_once(route: Route) -> None:
        if refused:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.fulfill(status=404, body="gone for a moment")

    page.context.route("**/pyodide/agentlite-*.whl", refuse_once)
    start = visit(page, origin)
    assert refused, "the agent wheel was never requested"
    assert start["path"] == "fallback"
    assert start["detail"].startswith("restored snapshot failed")
    assert start["stored"] is True
    assert_works(page, "later")


def test_a_message_sent_at_ready_waits_for_pydantic_and_is_answered(page: Page, origin: str) -> None:
    # pydantic and the tools load after ready (docs/startup.md): hold pydantic's wheel to see the wait.
    pipe_console(page)
    stored_snapshot(page, origin)
    held: list[Route] = []
    page.context.route("**/pyodide/pydantic-*.whl", lambda route: held.append(route))
    start = visit(page, origin)
    assert start["path"] == "snapshot"
    send(page, "hello at ready")
    for _ in range(1200):  # poll until the wheel request is held (bounded: 60 s)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "pydantic was never requested after ready"
    # The tokenizer is in: only the wait for pydantic holds the message now.
    assert agent_worker(page).evaluate(TOKENIZER_LOADED) is True
    assert page.get_attribute("[data-testid=app]", "data-state") == "ready"
    assert page.locator("[data-testid=message][data-role=assistant]").count() == 0
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/pydantic-*.whl")
    done = page.locator("[data-testid=message][data-role=assistant][data-state=done]")
    done.wait_for(timeout=60_000)
    assert "demo model" in done.inner_text()


@pytest.mark.cold
def test_a_first_visit_answers_before_its_snapshot_and_a_turn_restarts_the_maker(
    page: Page, origin: str
) -> None:
    # The snapshot is taken after ready, in a quiet spell, by a worker of its own which imports
    # Pyodide's loader (pyodide.mjs) again: hold every such import. The app still answers; the turn
    # ends the held maker, and a second one starts once the turn is over; released, it stores a
    # snapshot the next visit uses. (A nested worker's own script request is not routed by
    # Playwright; its imports are.)
    pipe_console(page)
    loads: list[str] = []
    held: list[Route] = []

    def hold_the_makers(route: Route) -> None:
        loads.append(route.request.url)
        if len(loads) == 1:
            route.continue_()  # the agent worker's own
        else:
            held.append(route)

    def wait_for_makers(count: int) -> None:
        for _ in range(1200):  # bounded: 60 s
            if len(held) >= count:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"{len(held)} snapshot makers started, expected {count}")

    page.context.route("**/pyodide/pyodide.mjs", hold_the_makers)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    assert dict(agent_worker(page).evaluate("self.agentliteStart"))["path"] == "fresh"
    wait_for_makers(1)
    assert_works(page, "early")  # pydantic, the tools, a turn: no snapshot needed
    wait_for_makers(2)
    assert entry(page) is None
    for route in held:
        with contextlib.suppress(PlaywrightError):  # the first maker was ended by the turn: gone
            route.continue_()
    page.context.unroute("**/pyodide/pyodide.mjs")
    stored = dict(agent_worker(page).evaluate("async () => await self.agentliteSnapshotStored"))
    assert (stored["stored"], stored["attempts"]) == (True, 2), stored
    assert stored["made_ms"]["prefix"] > 0
    assert (entry(page) or {})["size"] == stored["bytes"]
    assert visit(page, origin)["path"] == "snapshot"
