"""The Preview panel offline (docs/preview.md, "Bundles and the offline cache"): after one complete visit,
with the app's server gone, the app reloads from the service worker's cache and the preview shows a
vanilla workspace page and a TSX page with React from the import map (sucrase and the React copies come
from the cache, never from the network)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.conftest import wait_ready
from tests.e2e.test_offline import Gone, first_visit  # noqa: F401 (a fixture)
from tests.e2e.test_preview import TSX, VANILLA, WAIT_MS, frame_of, logs, write_files


def test_the_preview_shows_vanilla_and_tsx_react_pages_offline(
    first_visit: tuple[Page, str],  # noqa: F811 (the fixture imported above)
) -> None:
    page, origin = first_visit
    gone = Gone(page.context, origin)
    page.reload()
    wait_ready(page)
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")

    write_files(page, VANILLA)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.wait_for_function("document.getElementById('store').textContent !== ''", timeout=WAIT_MS)
    assert frame.inner_text("#module") == "MODULE! 42"
    assert frame.inner_text("#data") == "a,b,c"
    assert frame.evaluate("self.origin") == "null"

    write_files(page, {path.replace("/index.html", "/app.html"): text for path, text in TSX.items()})
    page.select_option("[data-testid=preview-entry]", "/app.html")
    page.wait_for_selector(
        "[data-testid=preview-frame][data-entry='/app.html'][data-state=ready]", timeout=WAIT_MS
    )
    frame = frame_of(page)
    frame.wait_for_selector("#count", timeout=WAIT_MS)
    assert frame.inner_text("#count") == "count is 0"
    frame.click("#inc")
    frame.wait_for_function("document.getElementById('count').textContent === 'count is 1'", timeout=WAIT_MS)
    errors = [text for level, text in logs(page) if level == "error"]  # the pane holds this page's lines
    assert not errors, errors
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"
