"""`mcp_call_roundtrip`: one remote MCP tool call through the app, p50 in ms (docs/mcp.md).

The app in Chromium, a scripted model that calls `add` of a local stateless MCP server (the tests' SDK
server, tests/mcp_server_app.py, from the test extras) once per turn, the server allowed so nothing
waits for a click: the figure is the call's time as the worker reports it on its card (from the start
of the call to its result: the argument check, the worker's fetch and the answer read back). The floor:
a bare `fetch` of the same `tools/call` from a page at the app's origin, one right before each of the
app's calls (interleaved, so both meet the server and the browser in the same state: fetches back to back
on a hot connection measured 3.4 ms, the same fetch spaced as the app's calls are 4.9–6.5 ms).
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, ROOT, BuildError
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks

RUNS = 30
TOOL = "mcp__test_tools_server__add"
HARNESS = "__bench_mcp.html"
VERSION = "2026-07-28"
FLOOR_PAGE = """<!doctype html><meta charset="utf-8"><title>mcp floor</title>
<script type="module">
// One bare tools/call of the same server: its time in ms.
window.once = async (url, i, version) => {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream",
    "mcp-protocol-version": version, "mcp-method": "tools/call", "mcp-name": "add" };
  const meta = { "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "0" } };
  const body = JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call",
    params: { name: "add", arguments: { a: i, b: 1 }, _meta: meta } });
  const start = performance.now();
  const answer = await (await fetch(url, { method: "POST", headers, body })).text();
  if (!answer.includes(String(i + 1))) throw new Error(answer);
  return performance.now() - start;
};
</script>"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server() -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    app = ROOT / "tests" / "mcp_server_app.py"
    process = subprocess.Popen([sys.executable, str(app), "stateless", str(port)], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise BuildError("the MCP test server did not start (are the test extras installed?)")


def _through_app(
    page: Any, origin: str, model: ModelServer, url: str, before_each: Callable[[int], None]
) -> list[float]:
    page.goto(f"{origin}/index.html?base_url={model.base_url}&model=test-model&dialect=native")
    page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=180_000)
    page.click("[data-testid=mcp-open]")
    page.fill(".mcp-add-form [data-testid=mcp-url]", url)
    page.click("[data-testid=mcp-add]")
    page.wait_for_selector(f"[data-testid=mcp-server][data-url={json.dumps(url)}][data-state=connected]")
    times: list[float] = []
    for turn in range(RUNS + 1):
        before_each(turn)
        page.fill("[data-testid=chat-input]", f"add {turn}")
        page.press("[data-testid=chat-input]", "Enter")
        card = page.locator(f"[data-testid=tool-card][data-tool={TOOL}]").nth(turn)
        if turn == 0:  # allow the server once; the turns after run unasked
            card.locator("[data-testid=tool-allow-server]").click(timeout=60_000)
        card.and_(page.locator("[data-status=completed]")).wait_for(timeout=60_000)
        page.locator("[data-testid=chat-stop]").wait_for(state="hidden", timeout=60_000)
        if turn:
            times.append(float(str(card.get_attribute("data-duration-ms"))))
    return times


def _floor_page(browser: Any, stack: contextlib.ExitStack) -> Any:
    """The floor's page, served from loopback as the app is (a page the browser made up itself would
    count as public, and Chromium refuses its requests to a loopback address)."""
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
    (folder / HARNESS).write_text(FLOOR_PAGE)
    served = stack.enter_context(StaticServer(folder))
    page = browser.new_page()
    page.goto(f"{served.origin}/{HARNESS}")
    wait_for_value(page, "() => window.once ? true : null", 60)
    return page


def mcp_call_roundtrip() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    process, url = _server()
    replies = []
    for turn in range(RUNS + 1):
        replies += [
            Scripted(chunks=tool_call_chunks((TOOL, {"a": turn, "b": 1}))),
            Scripted(chunks=text_chunks("ok")),
        ]
    try:
        with (
            contextlib.ExitStack() as stack,
            StaticServer(DIST) as server,
            ModelServer() as model,
            sync_playwright() as playwright,
        ):
            model.script(*replies)
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            floor_page = _floor_page(browser, stack)
            floors: list[float] = []

            def bare_fetch(turn: int) -> None:
                took = floor_page.evaluate(
                    f"window.once({json.dumps(url)}, {1000 + turn}, {json.dumps(VERSION)})"
                )
                if turn:  # the first warms the connection, as the app's first call does
                    floors.append(float(took))

            app = median(_through_app(browser.new_page(), server.origin, model, url, bare_fetch))
            floor = median(floors)
            browser.close()
    finally:
        process.kill()
        process.wait(5)
    goal = "the call's own time on its card against a bare fetch of the same tools/call"
    return [Figure("mcp_call_roundtrip", app, "ms", float(floor), RUNS, goal)]
