"""The page requests nothing from any host but its own origin (no CDN, ever)."""

from __future__ import annotations

from playwright.sync_api import Page, Request

from tests.e2e.conftest import pipe_console, wait_ready


def test_load_and_demo_exchange_stay_on_origin(page: Page, origin: str) -> None:
    requests: list[Request] = []
    page.context.on("request", lambda request: requests.append(request))
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    page.fill("[data-testid=chat-input]", "hello")
    page.click("[data-testid=chat-send]")
    page.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=60_000)
    urls = [r.url for r in requests]
    assert any(u.endswith(".wasm") for u in urls), "the load was not recorded"
    off_origin = [u for u in urls if not (u.startswith(origin + "/") or u.startswith("data:"))]
    assert off_origin == []
