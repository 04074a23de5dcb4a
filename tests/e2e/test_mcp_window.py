"""A server's tools are fitted as each request is built, in the app: the servers connect before the
tokenizer has come (it loads with the first message) and are fitted with the stricter count, yet the
first request offers all 40 tools of a realistic listing; a model whose window is 8k gets the server's
tools within a tenth of that window (docs/mcp.md, "The listing budget")."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, Route

from buildsys.bench.bench_tokens import count_tokens
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, start, wait_idle
from tests.e2e.test_mcp_servers import add_server, wait_state
from tests.mcp_servers import RunningServer, hostile_server

__all__ = ["hostile_server"]
SMALL_WINDOW = 8_192


def offered(request: Any) -> list[dict[str, Any]]:
    """The server's tools as the request offers them (native `tools` entries)."""
    return [t for t in request.body.get("tools") or [] if t["function"]["name"].startswith("mcp__github__")]


def tokens_of(tools: list[dict[str, Any]]) -> int:
    """Each tool's entry counted by gpt-tokenizer (o200k_base, the worker's tokenizer), summed."""
    texts = [json.dumps(tool, ensure_ascii=False) for tool in tools]
    counts = count_tokens(texts)
    return sum(counts[text] for text in texts)


def test_a_realistic_server_offers_all_its_tools_on_the_first_request(
    page: Page, origin: str, model_server: ModelServer, hostile_server: Callable[[str], RunningServer]
) -> None:
    server = hostile_server("forty")
    model_server.script(Scripted(chunks=text_chunks("Fine.")))
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "connected")
    note = item.locator("[data-testid=mcp-note]")
    note.wait_for(timeout=WAIT_MS)  # fitted before the tokenizer came: the stricter count left some out
    send(page, "Hello")
    wait_idle(page)
    [first] = model_server.completions()
    assert len(offered(first)) == 40
    note.wait_for(state="hidden", timeout=WAIT_MS)  # the panel has them all offered too


def test_a_model_with_an_8k_window_gets_the_servers_tools_within_a_tenth_of_it(
    page: Page, origin: str, model_server: ModelServer, hostile_server: Callable[[str], RunningServer]
) -> None:
    def listing(route: Route) -> None:
        entry = {"id": "test-model", "object": "model", "context_length": SMALL_WINDOW}
        headers = {"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"}
        route.fulfill(status=200, headers=headers, body=json.dumps({"object": "list", "data": [entry]}))

    page.context.route(f"{model_server.base_url}/models", listing)
    server = hostile_server("forty")
    model_server.script(Scripted(chunks=text_chunks("Small.")))
    with page.expect_request_finished(lambda r: r.url.endswith("/models"), timeout=WAIT_MS):
        start(page, origin, model_server)
    add_server(page, server.url)
    wait_state(page, server.url, "connected")
    send(page, "Hello")
    wait_idle(page)
    [first] = model_server.completions()
    tools = offered(first)
    assert 0 < len(tools) < 40
    assert tokens_of(tools) <= SMALL_WINDOW // 10
    assert "more tools of the MCP server `github` are not offered" in tools[-1]["function"]["description"]
