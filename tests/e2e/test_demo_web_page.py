"""The demo's "make a small web page" example, end to end from the first screen: the demo model writes
a page of three files, opens it with preview_page, and the Preview panel shows the page running (its
module script counts clicks); the answer is read from what the preview reported."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.scripted_support import approve_through
from tests.e2e.test_demo_scenarios import card, vfs, wait_reply
from tests.e2e.test_preview import frame_of, wait_log

PROMPT = "make a small web page"


def test_the_example_writes_a_page_and_shows_it_running(app: Page) -> None:
    app.locator(f"[data-testid=welcome-example][data-prompt='{PROMPT}']").click()
    for index in range(3):
        assert approve_through(app, card(app, "write_file", index)) == "completed"
    assert approve_through(app, card(app, "preview_page")) == "completed"
    wait_reply(app, "The page is up in the Preview panel with its title, the button is there")
    assert app.get_attribute("[data-testid=preview-frame]", "data-entry") == "/index.html"
    frame = frame_of(app)
    assert frame.title() == "Click counter"
    frame.locator("#count").click()
    assert frame.locator("#count").inner_text() == "Clicked 1 time"  # app.js ran in the preview
    wait_log(app, "counter ready")
    assert [e["path"] for e in vfs(app, "list", "/")] == ["/app.js", "/index.html", "/style.css"]
