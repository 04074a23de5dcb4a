"""preview_page over a fake sandbox: what it asks the page for and how the page's report reads."""

from __future__ import annotations

from typing import Any

from agentlite.sandbox import ScriptedSandbox
from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import call, context_with

REPORT = {
    "path": "/index.html",
    "state": "ready",
    "title": "My page",
    "text": "Hello\nworld",
    "logs": [{"level": "log", "text": "started"}, {"level": "error", "text": "Uncaught boom (/app.js:3:7)"}],
    "errors": ["Uncaught boom (/app.js:3:7)"],
}


def page(report: dict[str, Any], seen: list[tuple[str, dict[str, Any]]]) -> ScriptedSandbox:
    def handler(kind: str, payload: dict[str, Any], _timeout: int) -> dict[str, Any]:
        seen.append((kind, payload))
        return report

    return ScriptedSandbox(handler)


async def test_preview_page_asks_the_page_and_reports_title_text_console_and_errors() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    context = await context_with({"index.html": "<p>x</p>"}, sandbox=page(REPORT, seen))
    result = await call(context, "preview_page", path="index.html")
    assert seen == [("preview", {"path": "/index.html"})]
    assert result.ok
    assert "title: My page" in result.message
    assert "Hello\nworld" in result.message
    assert "[log] started" in result.message
    assert "uncaught errors (1)" in result.message and "/app.js:3:7" in result.message
    assert result.data == {"state": "ready", "title": "My page", "logs": 2, "errors": 1}


async def test_a_page_that_did_not_load_is_a_failure_the_model_reads() -> None:
    report = {**REPORT, "state": "error", "logs": [], "errors": []}
    context = await context_with({}, sandbox=page(report, []))
    result = await call(context, "preview_page")
    assert not result.ok
    assert result.error_type is ToolErrorType.SANDBOX
    assert "preview of /index.html: error" in result.message
