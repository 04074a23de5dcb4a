"""The memory panel: a turn that says "remember that …" adds an item to the open panel; the item can be
edited and deleted, and both changes are kept across a reload. Item text is shown as text, never as
markup."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import send, wait_ready
from tests.e2e.scripted_support import wait_idle

PANEL = "[data-testid=memory-panel]"
ITEMS = f"{PANEL} [data-testid=memory-item]"
WAIT_MS = 60_000


def open_panel(page: Page) -> None:
    page.click("[data-testid=memory-open]")
    expect(page.locator(PANEL)).to_be_visible()
    expect(page.locator("[data-testid=memory-open]")).to_have_attribute("aria-expanded", "true")


def test_a_remembered_fact_shows_up_and_can_be_edited_and_deleted(app: Page) -> None:
    open_panel(app)
    expect(app.locator(ITEMS)).to_have_count(0)

    send(app, "remember that the build uses esbuild")
    wait_idle(app)
    item = app.locator(ITEMS)
    expect(item).to_have_count(1, timeout=WAIT_MS)
    expect(item.locator(".memory-text")).to_have_text("The build uses esbuild")

    item.locator("[data-testid=memory-edit]").click()
    field = item.locator("[data-testid=memory-field]")
    expect(field).to_be_focused()
    field.fill("The build uses esbuild 0.24")
    field.press("Enter")
    expect(app.locator(f"{ITEMS} .memory-text")).to_have_text("The build uses esbuild 0.24", timeout=WAIT_MS)

    app.reload()
    wait_ready(app)
    open_panel(app)
    expect(app.locator(f"{ITEMS} .memory-text")).to_have_text("The build uses esbuild 0.24", timeout=WAIT_MS)

    app.locator(f"{ITEMS} [data-testid=memory-delete]").click()
    expect(app.locator(ITEMS)).to_have_count(0, timeout=WAIT_MS)
    app.reload()
    wait_ready(app)
    open_panel(app)
    expect(app.locator(f"{PANEL} .memory-message")).to_contain_text("Nothing remembered", timeout=WAIT_MS)
    expect(app.locator(ITEMS)).to_have_count(0)


def test_memory_text_is_rendered_as_text_and_the_panel_works_by_keyboard(app: Page) -> None:
    payload = '<img src=x onerror="window.__memoryXss=1"> and <b>bold</b>'
    app.focus("[data-testid=memory-open]")
    app.keyboard.press("Enter")
    expect(app.locator(PANEL)).to_be_visible()
    app.fill("[data-testid=memory-new]", payload)
    app.press("[data-testid=memory-new]", "Enter")
    item = app.locator(ITEMS)
    expect(item).to_have_count(1, timeout=WAIT_MS)
    expect(item.locator(".memory-text")).to_have_text(payload)
    assert item.locator("img, b").count() == 0
    assert app.evaluate("() => window.__memoryXss") is None

    edit = item.locator("[data-testid=memory-edit]")
    expect(edit).to_have_attribute("aria-label", f"Edit memory: {payload}")
    edit.focus()
    app.keyboard.press("Enter")
    field = item.locator("[data-testid=memory-field]")
    expect(field).to_be_focused()
    field.press("Escape")
    expect(item.locator(".memory-text")).to_have_text(payload, timeout=WAIT_MS)

    app.click("[data-testid=memory-close]")
    expect(app.locator(PANEL)).to_be_hidden()
    expect(app.locator("[data-testid=memory-open]")).to_be_focused()
