"""The demo's "make a small web page" scenario: it writes a page of three files, opens it with
preview_page and answers from what the preview reports, in every dialect; an error the preview reports
and a preview that cannot open are said as such, never as success."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.demo import web_page
from agentlite.demo.scenarios import examples
from agentlite.engine import Engine
from agentlite.engine.model_link import ModelLink
from agentlite.engine.strategy import Backoff
from agentlite.sandbox import ScriptedSandbox
from agentlite.settings import Settings
from agentlite.stream.decoder import DIALECTS
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import turn_options
from tests.unit.engine.test_demo import _sleep, finished, paced_demo, text_of

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

    async def scenario() -> tuple[list[dict[str, Any]], Workspace]:
        workspace = await Workspace.open(MemoryStorage())
        engine = Engine(
            workspace=workspace, sandbox=ScriptedSandbox(handler), sleep=_sleep, backoff=Backoff()
        )
        events: list[dict[str, Any]] = []

        def emit(event: dict[str, Any]) -> None:
            events.append(event)
            if event["kind"] == "approval":
                asyncio.get_running_loop().call_soon(chat.approve, event["id"], True)

        chat = engine.chat("demo", emit)
        chat.start_turn(PROMPT, ModelLink.of(Settings(dialect=dialect), paced_demo()), turn_options(chat, {}))
        assert chat.task is not None
        await chat.task
        return events, workspace

    events, workspace = asyncio.run(scenario())
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
    assert seen == [("preview", {"path": "/index.html"})]
    for path, text in web_page.FILES:
        assert asyncio.run(workspace.read_text(path)) == text
    assert "The page is up in the Preview panel with its title, the button is there" in text_of(events)


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
