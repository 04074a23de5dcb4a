"""Helpers for end-to-end tests that drive the app with the scripted endpoint
(buildsys/testing/model_server.py):
open the page pointed at it, approve the calls the engine asks about, and read what went back to the
model."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page, Request

from buildsys.testing.model_server import ModelServer
from tests.e2e.conftest import open_app
from tests.e2e.test_demo_scenarios import FINAL, wait_status

WAIT_MS = 60_000


def start(page: Page, origin: str, server: ModelServer) -> Page:
    """The app, pointed at the scripted endpoint with native tool calls."""
    return open_app(page, origin, base_url=server.base_url, model="test-model", dialect="native")


def messages(page: Page, role: str) -> Locator:
    return page.locator(f"[data-testid=message][data-role={role}]")


def wait_idle(page: Page) -> None:
    """The turn has ended: the stop button is hidden again."""
    page.locator("[data-testid=chat-stop]").wait_for(state="hidden", timeout=WAIT_MS)


def approve_through(page: Page, card: Locator, answer: str = "tool-approve") -> str:
    """Answer the card's approval request (when it asks) and return its final status."""
    status = wait_status(page, card, {"awaiting-approval", *FINAL})
    if status == "awaiting-approval":
        card.locator(f"[data-testid={answer}]").click()
    return wait_status(page, card, FINAL)


def tool_results(server: ModelServer) -> list[str]:
    """The tool results the model received, oldest first (from the newest request)."""
    body: dict[str, Any] = server.completions()[-1].body
    return [str(m.get("content")) for m in body["messages"] if m["role"] == "tool"]


def js_value(result: str) -> Any:
    """The JSON a browser_js_eval returned as a string: `result (string): "{...}"`."""
    value = result.split("\n", 1)[0].split(": ", 1)[1]
    return json.loads(json.loads(value))


@dataclass
class Requests:
    """Every request the browser starts (page, worker and frames), which it refused, which got answers.
    A request the CSP blocks is reported as started and then failed: it never left the browser."""

    started: list[Request] = field(default_factory=list)
    refused: list[Request] = field(default_factory=list)
    answered: list[Request] = field(default_factory=list)

    def left(self, marker: str) -> list[str]:
        """URLs holding `marker` of requests the browser did not refuse, or that got an answer."""
        unrefused = Counter(r.url for r in self.started) - Counter(r.url for r in self.refused)
        return sorted({url for url in [*unrefused, *(r.url for r in self.answered)] if marker in url})


def record_requests(page: Page) -> Requests:
    log = Requests()
    page.context.on("request", lambda request: log.started.append(request))
    page.context.on("requestfailed", lambda request: log.refused.append(request))
    page.context.on("response", lambda response: log.answered.append(response.request))
    return log
