"""The demo's "make a small web page" scenario: it writes a page of three files, opens it with
preview_page and answers from what the preview reports, in every dialect; an error the preview reports
and a preview that cannot open are said as such, never as success."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.demo import web_page
from agentlite.demo.scenarios import examples
from agentlite.page_jobs import ScriptedSandbox
from agentlite.stream.decoder import DIALECTS
from agentlite.workspace import Workspace
from tests.unit.engine.test_demo import finished, run_demo, text_of
from tests.unit.tools.test_page_preview import png

PROMPT = "make a small web page"
READY = {
    "state": "ready",
    "title": web_page.TITLE,
    "text": f"{web_page.TITLE}\nClicked 0 times",
    "logs": [{"level": "log", "text": "counter ready"}],
    "errors": [],
}


def run(dialect: str, report: dict[str, Any]) -> tuple[list[dict[str, Any]], Workspace, list[Any]]:
    seen: list[Any] = []

    def handler(kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        seen.append((kind, payload))
        return report

    events, workspace = run_demo(PROMPT, ScriptedSandbox(handler), dialect)
    return events, workspace, seen


@pytest.mark.parametrize("dialect", DIALECTS)
def test_writes_the_page_then_opens_its_preview(dialect: str) -> None:
    events, workspace, seen = run(dialect, READY)
    assert finished(events) == [
        ("write_file", "completed"),
        ("write_file", "completed"),
        ("write_file", "completed"),
        ("preview_page", "completed"),
    ]
    assert seen == [("preview", {"path": "/index.html", "screenshot": True})]
    for path, text in web_page.FILES:
        assert _read(workspace, path) == text
    assert "The page is up in the Preview panel with its title, the button is there" in text_of(events)


def test_the_picture_the_preview_took_is_pointed_to() -> None:
    shot = {"mime": "image/png", "data": png(4, 3), "width": 4, "height": 3}
    events, _, _ = run("native", {**READY, "screenshot": shot})
    assert "Its picture is on the preview_page card." in text_of(events)
    events, _, _ = run("native", {**READY, "screenshot_error": "the page did not give a picture"})
    assert "The page is up" in text_of(events) and "Its picture" not in text_of(events)


def test_an_uncaught_error_in_the_page_is_reported_not_hidden() -> None:
    report = {**READY, "errors": ["TypeError: button is null at /app.js:2:1"]}
    events, _, _ = run("native", report)
    text = text_of(events)
    assert "reports 1 uncaught error(s)" in text and "The page is up" not in text


def test_a_preview_that_cannot_open_is_said_as_such() -> None:
    events, _, _ = run("native", {"state": "error", "message": "the preview frame did not start"})
    assert finished(events)[-1] == ("preview_page", "failed")
    assert "The preview did not open the page: preview of /index.html: error" in text_of(events)


def test_the_first_screen_offers_it() -> None:
    assert {"prompt": PROMPT, "detail": "writes a page and opens its preview"} in examples()


def _read(workspace: Workspace, path: str) -> str | None:
    return asyncio.run(workspace.read_text(path))
