"""Working offline after the first visit (the service worker, web/service-worker.js): with the app's
server gone, a reload reaches `ready` from the worker's cache, the demo model answers with the JS sandbox,
a shell command runs in the shell sandbox, and the files written before are there with their history.
The model endpoint (another origin) is never answered by the worker. A new build deployed while a page
is open is offered, and after the reload every file the page gets is the new build's."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route

from buildsys.build import manifest, offline, pins
from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import pipe_console, send, wait_ready
from tests.e2e.scripted_support import WAIT_MS, approve_through, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_reply

SW_ALLOWED = {"service_workers": "allow"}


KEPT = """async ([cache, names]) => {
  const kept = await (await caches.open(cache)).keys();
  const paths = new Set(kept.map((request) => new URL(request.url).pathname.slice(1)));
  return names.every((name) => paths.has(name));
}"""


def offline_ready(page: Page) -> str:
    """Wait until one visit is complete: the page's service worker has installed its cache, is active and
    has kept the files it keeps after activating (pytest's wheels, `BUILD.later`); its cache name."""
    cache = str(
        page.evaluate(
            """async () => {
              await navigator.serviceWorker.ready;
              const names = await caches.keys();
              return names.find((name) => name.startsWith('agentlite-build-')) || '';
            }"""
        )
    )
    later = sorted(offline.on_demand_names(pins.load()))
    for _ in range(240):  # up to 2 minutes
        if page.evaluate(KEPT, [cache, later]):
            break
        page.wait_for_timeout(500)
    return cache


class Gone:
    """Every request to `origin` that reached the network while the server was gone (aborted)."""

    def __init__(self, context: BrowserContext, origin: str) -> None:
        self.aborted: list[str] = []

        def abort(route: Route) -> None:
            self.aborted.append(route.request.url)
            route.abort("connectionrefused")

        context.route(f"{origin}/**", abort)


@pytest.fixture
def first_visit(context_factory: Any) -> Iterator[tuple[Page, str]]:
    """A page of the app after one complete visit (ready, service worker active), its server stopped."""
    context = context_factory(**SW_ALLOWED)
    page = context.new_page()
    pipe_console(page)
    with StaticServer(DIST) as server:
        origin = server.origin
        page.goto(f"{origin}/index.html")
        wait_ready(page)
        vfs(page, "writeText", "/notes.md", "first line\n")
        vfs(page, "writeText", "/notes.md", "first line\nsecond line\n")
        assert offline_ready(page).startswith("agentlite-build-")
    yield page, origin


def test_after_one_visit_the_app_starts_and_works_with_the_server_gone(
    first_visit: tuple[Page, str], model_server: ModelServer
) -> None:
    page, origin = first_visit
    gone = Gone(page.context, origin)  # also covers another server taking the freed port
    page.reload()
    wait_ready(page)
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")

    send(page, "sum of primes below 1000")
    js = card(page, "browser_js_eval")
    assert approve_through(page, js) == "completed"
    wait_reply(page, "76127")

    assert vfs(page, "readText", "/notes.md") == "first line\nsecond line\n"
    history = vfs(page, "history", "/notes.md")
    assert len(history) == 2 and history[-1]["size"] == len("first line\nsecond line\n"), history

    # A shell command, asked for by a model endpoint on another origin (which the worker leaves alone).
    command = "cat notes.md | wc -l && echo offline > shell.txt && python3 -c 'print(6 * 7)'"
    model_server.script(
        Scripted(chunks=tool_call_chunks(("shell_exec", {"command": command}))),
        Scripted(chunks=text_chunks("Shell done.")),
    )
    query = f"base_url={model_server.base_url}&model=test-model&dialect=native"
    page.goto(f"{origin}/index.html?{query}")
    wait_ready(page)
    send(page, "run the shell")
    assert approve_through(page, card(page, "shell_exec")) == "completed"
    wait_idle(page)
    result = tool_results(model_server)[-1]
    lines = result.replace("\\n", "\n").split("\n")
    assert "2" in lines and "42" in lines, result  # wc -l of notes.md; Python's Pyodide came from the cache
    assert vfs(page, "readText", "/shell.txt") == "offline\n"
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"


def test_the_sandbox_frame_offline_is_opaque_and_sandboxed(first_visit: tuple[Page, str]) -> None:
    page, origin = first_visit
    Gone(page.context, origin)
    page.reload()
    wait_ready(page)
    send(page, "sum of primes below 1000")
    assert approve_through(page, card(page, "browser_js_eval")) == "completed"
    frame = page.locator("iframe[data-sandbox=js]")
    frame.wait_for(state="attached", timeout=WAIT_MS)
    assert frame.get_attribute("sandbox") == "allow-scripts"
    child = next(f for f in page.frames if f.url.endswith("/sandbox/frame.html"))
    assert child.evaluate("() => self.origin") == "null"
    assert child.evaluate(
        "() => { try { return parent.document.title; } catch (e) { return 'blocked'; } }"
    ) == ("blocked")


NEW_BUILD_MARK = "\n// the next build\n"
SHA256_OF_EVERY_FILE = """async (names) => {
  const wrong = [];
  for (const [name, expected] of Object.entries(names)) {
    const bytes = await (await fetch(name)).arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    if (hex !== expected) wrong.push(name);
  }
  return wrong;
}"""


def next_build(site: Path) -> dict[str, Any]:
    """Turn the copy of dist/ in `site` into another build: two bundles change, the manifest and the
    service worker are written again, as `python build.py` would."""
    for name in ("app.js", "worker.js"):
        with (site / name).open("a") as handle:
            handle.write(NEW_BUILD_MARK)
    built = manifest.write(site, json.loads((site / "build.json").read_text())["pyodide"])
    offline.write(site, built)
    return built


def test_a_new_build_is_offered_and_after_the_reload_every_file_is_the_new_one(
    context_factory: Any, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    shutil.copytree(DIST, site, ignore=shutil.ignore_patterns("*.gz", "*.br", "*.map"))
    context = context_factory(**SW_ALLOWED)
    page = context.new_page()
    pipe_console(page)
    with StaticServer(site) as server:
        page.goto(f"{server.origin}/index.html")
        wait_ready(page)
        old_cache = offline_ready(page)
        page.reload()  # now the page runs under the worker of the first build
        wait_ready(page)
        built = next_build(site)

        page.evaluate("dispatchEvent(new Event('online'))")  # the page checks for a new build
        notice = page.locator("[data-testid=update-available]")
        notice.wait_for(timeout=WAIT_MS * 2)
        # Until the user switches, the open page is served its own build only.
        assert NEW_BUILD_MARK not in page.evaluate("fetch('app.js').then((r) => r.text())")
        assert page.get_attribute("[data-testid=app]", "data-state") == "ready"

        with page.expect_navigation(timeout=WAIT_MS):
            notice.locator("[data-testid=update-reload]").click()
        wait_ready(page)
        # Only build caches count: the Pyodide snapshot keeps its own cache, keyed by build inside.
        caches = [c for c in page.evaluate("caches.keys()") if c.startswith(offline.CACHE_PREFIX)]
        assert caches == [offline.cache_name(built["build"])] and old_cache not in caches
        assert page.evaluate(SHA256_OF_EVERY_FILE, offline.precached(built["files"])) == []
        assert page.evaluate("fetch('build.json').then((r) => r.json())")["build"] == built["build"]
        assert page.locator("[data-testid=update-available]").count() == 0
