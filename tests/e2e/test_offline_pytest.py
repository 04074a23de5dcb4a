"""pytest's wheels and the service worker: they are not part of the install (the bytes before `ready`
do not grow), the worker keeps them once it has activated, so after one complete visit pytest runs with
the app's server gone without ever having run online."""

from __future__ import annotations

from playwright.sync_api import Page

from buildsys.build import offline, pins
from tests.e2e.conftest import wait_ready
from tests.e2e.test_demo_pytest import red_then_green
from tests.e2e.test_offline import Gone, first_visit  # noqa: F401 (a fixture)

CACHED = """async () => {
  const cache = (await caches.keys()).find((name) => name.startsWith('agentlite-build-'));
  const keys = await (await caches.open(cache)).keys();
  return keys.map((request) => new URL(request.url).pathname.slice(1)).filter((p) => p.endsWith('.whl'));
}"""


def test_pytest_wheels_are_kept_after_one_visit_and_work_offline(
    first_visit: tuple[Page, str],  # noqa: F811 (the fixture imported above)
) -> None:
    page, origin = first_visit  # the server is gone; the visit is complete once the wheels are kept
    on_demand = offline.on_demand_names(pins.load())
    assert on_demand <= set(page.evaluate(CACHED))

    gone = Gone(page.context, origin)
    page.reload()
    wait_ready(page)
    red_then_green(page)  # pytest never ran online: the frame, its Pyodide and pytest from the cache
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"
