"""pytest's wheels and the service worker: they are not fetched when the worker installs (the first
visit's bytes do not grow), the worker keeps each one the first time the page fetches it, and from then
on pytest runs with the app's server gone."""

from __future__ import annotations

from typing import Any

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


def test_pytest_wheels_are_kept_on_first_use_then_work_offline(context_factory: Any) -> None:
    on_demand = offline.on_demand_names(pins.load())
    context = context_factory(**SW_ALLOWED)
    page = context.new_page()
    pipe_console(page)
    with StaticServer(DIST) as server:
        origin = server.origin
        page.goto(f"{origin}/index.html")
        wait_ready(page)
        cache = offline_ready(page)
        assert not on_demand & set(page.evaluate(CACHED, cache))  # not at install
        page.reload()  # now under the worker
        wait_ready(page)
        red_then_green(page)
        assert on_demand <= set(page.evaluate(CACHED, cache))  # kept once fetched

    gone = Gone(context, origin)
    page.reload()
    wait_ready(page)
    page.locator("[data-testid=chat-tab-new]").click()
    red_then_green(page)  # a new frame, its Pyodide and pytest all from the worker's cache
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"
