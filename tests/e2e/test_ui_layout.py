"""Layout: a narrow window shows one panel at a time and a panel switcher (Files / Editor / Chat tabs,
by mouse or keyboard) instead of panels out of reach; the dark colour scheme gives a dark app."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_app, send
from tests.e2e.test_demo_scenarios import vfs, wait_reply

SWITCH = "[data-testid=panel-switch]"


def switch(page: Page, panel: str) -> Any:
    return page.locator(f"{SWITCH}[data-panel={panel}]")


def test_a_narrow_window_switches_between_panels(page: Page, origin: str) -> None:
    page.set_viewport_size({"width": 600, "height": 800})
    open_app(page, origin)
    vfs(page, "writeText", "/src/main.ts", "export const answer = 42;\n")
    expect(page.locator(SWITCH)).to_have_count(3)
    assert page.locator(SWITCH).all_inner_texts() == ["Files", "Editor", "Chat"]
    expect(switch(page, "chat")).to_have_attribute("aria-selected", "true")
    expect(page.locator("[data-testid=file-tree]")).to_be_hidden()

    switch(page, "files").click()
    expect(switch(page, "files")).to_have_attribute("aria-selected", "true")
    expect(page.locator("[data-testid=file-tree]")).to_be_visible()
    expect(page.locator("[data-testid=file-item][data-path='/src/main.ts']")).to_be_visible()
    expect(page.locator("[data-testid=chat-input]")).to_be_hidden()
    box = page.locator("#panel-files").bounding_box()
    assert box is not None and box["width"] > 500  # the one panel fills the window

    switch(page, "files").press("ArrowRight")  # keyboard: the next tab, focused and shown
    expect(switch(page, "editor")).to_be_focused()
    expect(switch(page, "editor")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-editor")).to_be_visible()
    expect(page.locator("[data-testid=file-tree]")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(switch(page, "chat")).to_have_attribute("aria-selected", "true")
    expect(page.locator("[data-testid=chat-input]")).to_be_visible()
    send(page, "hello")
    wait_reply(page, "AgentLite demo model")

    switch(page, "files").click()
    page.locator("[data-testid=file-item][data-path='/src/main.ts'] .file-row").click()
    expect(switch(page, "editor")).to_have_attribute("aria-selected", "true")  # opening a file shows it
    expect(page.locator("[data-testid=file-view]")).to_have_attribute("data-path", "/src/main.ts")


def test_a_wide_window_shows_every_panel_and_no_switcher(app: Page) -> None:
    expect(app.locator(SWITCH).first).to_be_hidden()
    for panel in ("#panel-files", "#panel-editor", "#panel-chat"):
        expect(app.locator(panel)).to_be_visible()


def luminance(page: Page) -> float:
    colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_the_dark_colour_scheme_gives_a_dark_app(page: Page, origin: str, context_factory: Any) -> None:
    open_app(page, origin)
    assert luminance(page) > 0.8
    dark = context_factory(color_scheme="dark", viewport={"width": 1280, "height": 860}).new_page()
    open_app(dark, origin)
    assert luminance(dark) < 0.2
    panel = dark.evaluate("getComputedStyle(document.querySelector('#panel-chat')).backgroundColor")
    assert panel != "rgb(255, 255, 255)"
