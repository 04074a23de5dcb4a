"""Budgets on what a server sends, through `McpServers` against scripted servers: the tools of all
servers together stay within `ALL_BUDGET`, each within its share, with a note of what was left out; a
`list_changed` flood and a list announced new after every call are read at the pace's rate; the tools are
fitted again when the real tokenizer comes (docs/mcp.md, "Budgets on what a server sends")."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from agentlite.engine import tokens
from agentlite.mcp.listing import ALL_BUDGET, DEFAULT_BUDGET, tool_cost
from agentlite.mcp.pace import BURST, Pace
from agentlite.mcp.seam import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.mcp.server_book import ServerBook
from agentlite.mcp.servers import McpServers
from agentlite.tools.registry import ToolRegistry
from tests.mcp_hostile_app import huge_tools

JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream"}
CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


class Server:
    """A scripted server of the stateless revision: its listing, how often it was read, and a flood of
    `list_changed` on its listening stream."""

    def __init__(self, name: str, tools: Callable[[int], list[dict[str, Any]]], flood: int = 0) -> None:
        self.name, self.tools, self.flood = name, tools, flood
        self.read = 0
        self.changes = flood > 0

    def respond(self, request: HttpRequest) -> ScriptedResponse:
        assert request.body is not None
        method, ident = request.body.get("method"), request.body.get("id")
        if method == "subscriptions/listen":
            if not self.flood:
                return ScriptedResponse(200, [b": idle\n\n"], SSE, delay=30)  # a quiet stream
            event = f"data: {json.dumps(CHANGED)}\n\n".encode()
            return ScriptedResponse(200, [event] * self.flood, SSE, delay=0.001)
        if method == "server/discover":
            result: dict[str, Any] = {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {"listChanged": self.changes}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": self.name}},
            }
        elif method == "tools/list":
            self.read += 1
            result = {"tools": self.tools(self.read)}
        else:
            result = {"content": [{"type": "text", "text": "pong"}]}
        body = json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()
        if method == "tools/call" and self.changes:  # its list changes with every call, and it says so
            return ScriptedResponse(
                200, [f"data: {json.dumps(CHANGED)}\n\ndata: ".encode() + body + b"\n\n"], SSE
            )
        return ScriptedResponse(200, [body], JSON)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def churning(read: int) -> list[dict[str, Any]]:
    return [
        {"name": "ping", "description": f"listing {read}", "inputSchema": {"type": "object"}},
        {"name": f"fresh_{read}", "inputSchema": {"type": "object"}},
    ]


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


async def connected(servers: list[Server], pace: Callable[[], Pace] = Pace) -> tuple[McpServers, list[Any]]:
    by_host = {f"http://{s.name.lower()}.test/mcp": s for s in servers}
    book = await ServerBook.load(None)
    posted: list[dict[str, Any]] = []
    registry = ToolRegistry()

    def transport() -> ScriptedTransport:
        return ScriptedTransport(lambda request: by_host[request.url].respond(request))

    live = McpServers(book, registry, transport, posted.append, pace=pace)
    for url in by_host:
        await live.add(url)
    for _ in range(2_000):
        if all(view["state"] == "connected" for view in live.views()):
            break
        await asyncio.sleep(0.01)
    assert all(view["state"] == "connected" for view in live.views()), live.views()
    return live, posted


@pytest.fixture
def real_tokenizer() -> Any:
    """The estimate standing in for the tokenizer the page installs (its cost, not the fallback's)."""
    tokens.use(tokens.estimate)
    yield
    tokens.use(None)


def remote_cost(registry: ToolRegistry, prefix: str = "mcp__") -> int:
    return sum(tool_cost(tool) for tool in registry if tool.name.startswith(prefix))


async def stop(live: McpServers) -> None:
    for link in list(live.links.values()):
        link.stop()
        if link.listener is not None:
            link.listener.cancel()
    await asyncio.sleep(0)


def test_every_servers_tools_together_stay_within_the_shared_budget() -> None:
    async def scenario() -> None:
        hostile = [Server(name, lambda _read: huge_tools()) for name in ("One", "Two", "Three")]
        live, _ = await connected(hostile)
        share = min(DEFAULT_BUDGET, ALL_BUDGET // 3)
        for server in ("one", "two", "three"):
            assert 0 < remote_cost(live.registry, f"mcp__{server}__") <= share
        assert remote_cost(live.registry) <= ALL_BUDGET
        for view in live.views():
            assert "more tools of this server are not offered" in view["note"]
            assert len(view["tools"]) == 120  # the panel names every tool, offered or not
        await live.remove("http://three.test/mcp")  # the others get its share
        for server in ("one", "two"):
            assert remote_cost(live.registry, f"mcp__{server}__") > share
            assert remote_cost(live.registry, f"mcp__{server}__") <= DEFAULT_BUDGET
        await stop(live)

    run(scenario())


def test_turning_tools_off_makes_room_for_the_others() -> None:
    async def scenario() -> None:
        live, _ = await connected([Server("One", lambda _read: huge_tools())])
        offered = [tool.name for tool in live.registry]
        view = live.views()[0]
        for tool in offered:
            await live.toggle(view["url"], tool, False)
        now = [tool.name for tool in live.registry]
        assert now and not set(now) & set(offered)
        await stop(live)

    run(scenario())


def test_a_list_changed_flood_is_read_no_more_than_the_pace_allows() -> None:
    clock = Clock()  # the clock stands still: after the burst, no reading is due

    async def scenario() -> None:
        flooding = Server("Flood", churning, flood=400)
        live, _ = await connected([flooding], pace=lambda: Pace(clock=clock))
        for _ in range(300):  # the flood has been read through
            await asyncio.sleep(0.01)
        assert flooding.read <= BURST
        await stop(live)

    run(scenario())


def test_a_list_announced_new_after_every_call_is_read_at_the_pace_and_its_last_change_is_kept() -> None:
    async def scenario() -> None:
        churn = Server("Churn", churning)
        churn.changes = True  # every call's answer announces a new list
        live, _ = await connected([churn], pace=lambda: Pace(gap=0.2))
        ping = live.registry.get("mcp__churn__ping")
        assert ping is not None
        for _ in range(20):
            await ping.run(None, {})
        assert churn.read <= BURST + 1
        before = churn.read
        for _ in range(500):  # the change announced by the last call is read once its turn comes
            if churn.read > before:
                break
            await asyncio.sleep(0.01)
        assert churn.read == before + 1
        await stop(live)

    run(scenario())


def test_the_tools_are_fitted_again_when_the_tokenizer_comes() -> None:
    async def scenario() -> None:
        live, _ = await connected([Server("One", lambda _read: huge_tools())])
        before = len(list(live.registry))
        tokens.use(lambda text: 10 * tokens.estimate(text))  # a tokenizer that finds them dearer
        try:
            live.allowed()
            after = len(list(live.registry))
            assert 0 < after < before
            assert remote_cost(live.registry) <= DEFAULT_BUDGET
        finally:
            tokens.use(None)
        await stop(live)

    run(scenario())


def test_a_huge_listing_with_the_tokenizer_is_offered_within_the_budget(real_tokenizer: Any) -> None:
    async def scenario() -> None:
        live, _ = await connected([Server("One", lambda _read: huge_tools())])
        assert 0 < remote_cost(live.registry) <= DEFAULT_BUDGET
        assert live.views()[0]["note"]
        await stop(live)

    run(scenario())
