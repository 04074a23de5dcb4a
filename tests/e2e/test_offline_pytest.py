"""pytest's wheels and the service worker: they are not part of the install (the bytes before `ready`
do not grow), the worker keeps them once it has activated, so after one complete visit pytest runs with
the app's server gone without ever having run online."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from buildsys import offline, pins
from buildsys.common import DIST
from buildsys.serve import StaticServer
from tests.e2e.conftest import pipe_console, wait_ready
from tests.e2e.test_demo_pytest import red_then_green
from tests.e2e.test_offline import SW_ALLOWED, Gone, offline_ready

CACHED = """async (cache) => {
  const keys = await (await caches.open(cache)).keys();
  return keys.map((request) => new URL(request.url).pathname.slice(1)).filter((p) => p.endsWith('.whl'));
}"""


KEPT = """async ([cache, names]) => {
  const kept = await (await caches.open(cache)).keys();
  const paths = new Set(kept.map((request) => new URL(request.url).pathname.slice(1)));
  return names.every((name) => paths.has(name));
}"""


def wait_kept(page: Page, cache: str, names: list[str]) -> None:
    """Wait (up to 2 minutes) until the worker has kept `names`: it does so after activating."""
    for _ in range(240):
        if page.evaluate(KEPT, [cache, names]):
            return
        page.wait_for_timeout(500)


def test_pytest_wheels_are_kept_after_one_visit_and_work_offline(context_factory: Any) -> None:
    on_demand = offline.on_demand_names(pins.load())
    context = context_factory(**SW_ALLOWED)
    page = context.new_page()
    pipe_console(page)
    with StaticServer(DIST) as server:
        origin = server.origin
        page.goto(f"{origin}/index.html")
        wait_ready(page)
        cache = offline_ready(page)
        wait_kept(page, cache, sorted(on_demand))
        assert on_demand <= set(page.evaluate(CACHED, cache))

    gone = Gone(context, origin)
    page.reload()
    wait_ready(page)
    red_then_green(page)  # pytest never ran online: the frame, its Pyodide and pytest from the cache
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"
