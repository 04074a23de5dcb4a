"""preview_page over a fake sandbox: what it asks the page for and how the page's report reads."""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

import pytest

from agentlite.commands import PageSettings
from agentlite.page_jobs import ScriptedSandbox
from agentlite.tools.context import ToolSettings
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
    assert seen == [("preview", {"path": "/index.html", "screenshot": False})]
    assert result.ok
    assert not result.images and "screenshot" not in result.message
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


def png(width: int, height: int) -> str:
    """A real PNG of one colour, base64 (as the page hands it over)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\x00" + b"\x0a\x78\xc8" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
    return base64.b64encode(raw + chunk(b"IEND", b"")).decode()


SHOT = {"mime": "image/png", "data": png(4, 3), "width": 4, "height": 3}


@pytest.mark.parametrize("vision", [True, False])
async def test_a_screenshot_rides_on_the_result_and_the_text_says_whether_the_model_sees_it(
    vision: bool,
) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    context = await context_with(
        {}, sandbox=page({**REPORT, "screenshot": SHOT}, seen), settings=ToolSettings(takes_images=vision)
    )
    result = await call(context, "preview_page", screenshot=True)
    assert seen == [("preview", {"path": "/index.html", "screenshot": True})]
    assert result.ok and "title: My page" in result.message  # the rest of the report is all there
    assert [(image.mime, image.data) for image in result.images] == [("image/png", SHOT["data"])]
    assert result.to_dict()["images"] == [{"mime": "image/png", "data": SHOT["data"]}]  # the card's
    if vision:
        assert result.message.endswith("screenshot: 4x3 PNG, attached")
    else:
        assert "screenshot: 4x3 PNG, shown to the user on the tool card" in result.message
        assert "not sent to you" in result.message


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({"screenshot_error": "the page did not give a picture within 10 s"}, "within 10 s"),
        ({"screenshot": {**SHOT, "data": base64.b64encode(b"<svg onload=x>").decode()}}, "not a image/png"),
        ({"screenshot": "nonsense"}, "the preview gave no picture"),
        ({}, "the preview gave no picture"),
    ],
)
async def test_a_screenshot_that_failed_is_a_line_of_text_and_the_report_still_comes(
    answer: dict[str, Any], why: str
) -> None:
    context = await context_with({}, sandbox=page({**REPORT, **answer}, []))
    result = await call(context, "preview_page", screenshot=True)
    assert result.ok and not result.images
    assert "title: My page" in result.message and "[log] started" in result.message
    last = result.message.splitlines()[-1]
    assert last.startswith("screenshot: not taken: ") and why in last


@pytest.mark.parametrize(("given", "asked"), [("true", True), (None, False), ("false", False), (1, True)])
async def test_the_screenshot_argument_is_read_leniently(given: object, asked: bool) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    context = await context_with({}, sandbox=page(REPORT, seen))
    await call(context, "preview_page", path="/index.html", screenshot=given)
    assert seen == [("preview", {"path": "/index.html", "screenshot": asked})]


async def test_a_bad_screenshot_argument_is_a_tool_error() -> None:
    context = await context_with({}, sandbox=page(REPORT, []))
    result = await call(context, "preview_page", screenshot="maybe")
    assert not result.ok and result.error_type is ToolErrorType.INVALID_ARGUMENT


@pytest.mark.parametrize(
    ("vision", "model", "takes"), [("yes", "m", True), ("no", "gpt-4o", False), ("auto", "qwen2.5-vl", True)]
)
def test_the_page_settings_tell_the_tools_whether_the_model_takes_images(
    vision: str, model: str, takes: bool
) -> None:
    values = {"base_url": "http://127.0.0.1:9/v1", "model": model, "vision": vision}
    assert PageSettings.from_message(values).tools.takes_images is takes


async def test_the_requests_the_page_made_read_beside_its_console() -> None:
    report = {**REPORT, "requests": [{"method": "GET", "url": "data.json", "status": 200}]}
    context = await context_with({}, sandbox=page(report, []))
    result = await call(context, "preview_page")
    assert "--- requests (1) ---\nGET data.json 200" in result.message
