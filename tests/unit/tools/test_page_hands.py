"""preview_snapshot, preview_act and preview_wait over a fake page: what they ask the page for and how
its answers read (the tree, the change an action made, its console, errors and requests, a clear error
for an unknown ref)."""

from __future__ import annotations

from typing import Any

from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import call, context_with
from tests.unit.tools.test_page_preview import page

LINES = ['- textbox "What needs to be done?" [ref=e2]', "- list [ref=e3]"]


async def test_snapshot_asks_the_preview_for_the_tree_of_the_page() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    answer = {"path": "/index.html", "state": "ready", "reused": True, "lines": LINES}
    context = await context_with({"index.html": "<p>x</p>"}, sandbox=page(answer, seen))
    result = await call(context, "preview_snapshot", path="index.html")
    assert seen == [("preview", {"op": "snapshot", "path": "/index.html"})]
    assert result.ok, result.message
    assert result.message.splitlines()[0] == "snapshot of /index.html:"
    assert "\n".join(LINES) in result.message
    assert result.data == {"state": "ready", "lines": 2}


async def test_snapshot_of_a_page_just_loaded_carries_its_console_and_requests() -> None:
    answer = {
        "path": "/index.html",
        "state": "ready",
        "lines": LINES,
        "logs": [{"level": "warn", "text": "careful"}],
        "errors": [],
        "requests": [{"method": "GET", "url": "learn.json", "status": 404}],
    }
    context = await context_with({}, sandbox=page(answer, []))
    result = await call(context, "preview_snapshot")
    assert "[warn] careful" in result.message
    assert "--- requests (1) ---\nGET learn.json 404" in result.message


async def test_act_reports_the_change_console_errors_and_requests_it_caused() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    answer = {
        "before": LINES,
        "after": [LINES[0], "- list [ref=e3]:", "  - listitem [ref=e7]: buy milk"],
        "logs": [
            {"level": "log", "text": "added"},
            {"level": "error", "text": "Uncaught boom (/app.js:3:7)"},
        ],
        "errors": ["Uncaught boom (/app.js:3:7)"],
        "requests": [{"method": "POST", "url": "/api/todos", "status": 404}],
    }
    context = await context_with({}, sandbox=page(answer, seen))
    result = await call(context, "preview_act", ref="e2", action="press", value="Enter")
    assert seen == [("preview", {"op": "act", "ref": "e2", "action": "press", "value": "Enter"})]
    assert result.ok, result.message
    assert result.message.splitlines()[0] == "press Enter on e2: done"
    assert "- - list [ref=e3]\n+ - list [ref=e3]:\n+   - listitem [ref=e7]: buy milk" in result.message
    assert "[log] added" in result.message
    assert "uncaught errors (1)" in result.message and "/app.js:3:7" in result.message
    assert "POST /api/todos 404" in result.message
    assert result.data == {"action": "press", "ref": "e2", "removed": 1, "added": 2, "errors": 1}


async def test_an_unknown_ref_is_a_clear_error_for_the_model() -> None:
    answer = {"error": 'unknown ref "e99": take a new preview_snapshot and use a ref from it', "logs": []}
    context = await context_with({}, sandbox=page(answer, []))
    result = await call(context, "preview_act", ref="e99", action="click")
    assert not result.ok
    assert result.error_type is ToolErrorType.INVALID_ARGUMENT
    assert 'unknown ref "e99"' in result.message


async def test_an_action_the_tool_does_not_know_is_refused_before_the_page_is_asked() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    context = await context_with({}, sandbox=page({}, seen))
    result = await call(context, "preview_act", ref="e1", action="dance")
    assert not result.ok and seen == []
    assert result.error_type is ToolErrorType.INVALID_ARGUMENT


async def test_an_action_that_loads_another_page_shows_that_page_whole() -> None:
    answer = {"navigated": "/b.html", "before": [], "after": ['- heading "B" [level=1] [ref=e1]']}
    context = await context_with({}, sandbox=page(answer, []))
    result = await call(context, "preview_act", ref="e4", action="click")
    assert result.ok
    assert "the page went to /b.html; its snapshot:" in result.message
    assert '- heading "B" [level=1] [ref=e1]' in result.message


async def test_wait_is_bounded_and_says_whether_the_text_came() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    answer = {"happened": True, "waited_ms": 120, "lines": LINES}
    context = await context_with({}, sandbox=page(answer, seen))
    result = await call(context, "preview_wait", text="buy milk", timeout_ms=999_999)
    assert seen == [("preview", {"op": "wait", "text": "buy milk", "gone": False, "timeout_ms": 30_000})]
    assert result.ok
    assert result.message.splitlines()[0] == 'waited 120 ms: "buy milk" appeared'
    missing = await call(
        await context_with({}, sandbox=page({"happened": False, "waited_ms": 500, "lines": []}, [])),
        "preview_wait",
        text="done",
        gone=True,
        timeout_ms=500,
    )
    assert not missing.ok and missing.error_type is ToolErrorType.TIMEOUT
    assert 'waited 500 ms: "done" did not go' in missing.message


async def test_a_page_still_loading_is_read_and_one_that_failed_is_an_error() -> None:
    loading = {"path": "/index.html", "state": "loading", "lines": LINES}
    result = await call(await context_with({}, sandbox=page(loading, [])), "preview_snapshot")
    assert result.ok and "(its load event has not come yet)" in result.message
    failed = {"path": "/index.html", "state": "error", "message": "boom", "lines": []}
    result = await call(await context_with({}, sandbox=page(failed, [])), "preview_snapshot")
    assert not result.ok and "snapshot of /index.html failed: boom" in result.message
