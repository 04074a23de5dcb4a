"""When a server's tool list is read again (mcp.servers): never after a call on the chance that it
changed, only when the server says so (`notifications/tools/list_changed`, inside a call's answer or on
its listening stream), once, before the next round (`McpServers.reread`). A call to a server that may
announce changes is one exchange, against the real SDK servers and a scripted one."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from agentlite.mcp.seam import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.mcp.server_book import ServerBook
from agentlite.mcp.servers import McpServers
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.tools.registry import ToolRegistry
from tests.mcp_servers import RunningServer

JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream"}
CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
LISTENING = ("GET", "subscriptions/listen")


def method(request: HttpRequest) -> str:
    """The JSON-RPC method a request carries, or the HTTP one (the session's listening GET, a DELETE)."""
    body = request.body
    return str(body["method"]) if isinstance(body, dict) and "method" in body else request.method


class Counted:
    """The real transport, counting each exchange by its method; `answered` tells the test when a
    listening stream is open (its answer's headers are in): the readiness waited on, never a sleep."""

    def __init__(self) -> None:
        self.inner = UrllibTransport(timeout=10)
        self.sent: Counter[str] = Counter()
        self.answered: dict[str, asyncio.Event] = defaultdict(asyncio.Event)

    async def send(self, request: HttpRequest) -> Any:
        self.sent[method(request)] += 1
        response = await self.inner.send(request)
        self.answered[method(request)].set()
        return response

    def exchanges(self) -> int:
        """Every exchange but the listening streams'."""
        return sum(count for name, count in self.sent.items() if name not in LISTENING)


async def until(holds: Callable[[], bool]) -> None:
    """Readiness, looked at every 10 ms for at most 15 s."""
    for _ in range(1_500):
        if holds():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


@contextlib.asynccontextmanager
async def added(url: str, transport: Callable[[], Any]) -> AsyncIterator[tuple[McpServers, ToolRegistry]]:
    """The server added and connected; removed at the end, whatever happened (no task outlives a test)."""
    registry = ToolRegistry()
    live = McpServers(await ServerBook.load(None), registry, transport, lambda _view: None)
    try:
        await live.add(url)
        await until(lambda: live.views()[0]["state"] == "connected")
        yield live, registry
    finally:
        for known in list(live.links):
            await live.remove(known)
        await asyncio.sleep(0)


@pytest.mark.parametrize("kind", ["stateful", "stateless"])
async def test_a_call_to_a_server_that_may_announce_changes_is_one_exchange(
    kind: str, request: pytest.FixtureRequest
) -> None:
    server: RunningServer = request.getfixturevalue(f"{kind}_server")
    counted = Counted()
    async with added(server.url, lambda: counted) as (live, registry):
        await asyncio.wait_for(
            counted.answered["GET" if kind == "stateful" else "subscriptions/listen"].wait(), 15
        )
        link = live.link(server.url)
        assert link.listener is not None and not link.listener.done()  # it may announce a change at any time
        add = registry.get("mcp__test_tools_server__add")
        assert add is not None
        before = counted.exchanges()
        for number in range(3):
            result = await add.run(None, {"a": number, "b": 1})
            assert result.ok and str(number + 1) in result.message
        assert counted.exchanges() - before == 3  # three calls, nothing else
        assert counted.sent["tools/list"] == 1  # the connection's reading
        await live.reread()  # nothing announced: nothing read before the next round
        assert counted.sent["tools/list"] == 1


async def test_a_tool_a_call_adds_is_read_once_when_the_server_announces_it(
    mcp_server: Callable[[str], RunningServer],
) -> None:
    """The real server announces on its listening stream, which may come after the call's result: the
    list is read when the announcement is heard, once."""
    server = mcp_server("stateless")
    counted = Counted()
    async with added(server.url, lambda: counted) as (live, registry):
        await asyncio.wait_for(counted.answered["subscriptions/listen"].wait(), 15)
        grow = registry.get("mcp__test_tools_server__grow")
        assert grow is not None
        assert (await grow.run(None, {})).ok
        await until(lambda: registry.get("mcp__test_tools_server__extra") is not None)
        await live.reread()
        assert counted.sent["tools/list"] == 2  # at connection, and once for the announced change


class Announcing:
    """A scripted server of the stateless revision that declares `tools.listChanged`: it announces a
    change inside a call's answer (`in_call`), or on its listening stream once `announce` is set."""

    def __init__(self, in_call: bool) -> None:
        self.in_call = in_call
        self.read = 0
        self.grown = False
        self.announce = asyncio.Event()
        self.held: asyncio.Event | None = None  # set: a reading after the first waits for it to be set

    async def respond(self, request: HttpRequest) -> Any:
        name = method(request)
        if name == "subscriptions/listen":
            return Listening(self.announce)
        if name == "server/discover":
            result: dict[str, Any] = {
                "supportedVersions": ["2026-07-28"],
                "capabilities": {"tools": {"listChanged": True}},
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "Grows"}},
            }
        elif name == "tools/list":
            self.read += 1
            if self.read > 1 and self.held is not None:
                await self.held.wait()
            result = {"tools": [_tool("grow"), *([_tool("extra")] if self.grown else [])]}
        else:
            self.grown = True
            result = {"content": [{"type": "text", "text": "grown"}]}
        answer = {"jsonrpc": "2.0", "id": request.body["id"], "result": result}  # type: ignore[index]
        if name == "tools/call" and self.in_call:
            events = [f"data: {json.dumps(CHANGED)}\n\n".encode(), f"data: {json.dumps(answer)}\n\n".encode()]
            return ScriptedResponse(200, events, SSE)
        return ScriptedResponse(200, [json.dumps(answer).encode()], JSON)


class Listening:
    """A listening stream that stays quiet until the server announces a change."""

    status, headers = 200, SSE

    def __init__(self, announce: asyncio.Event) -> None:
        self.announce = announce

    async def chunks(self) -> AsyncIterator[bytes]:
        await self.announce.wait()
        yield f"data: {json.dumps(CHANGED)}\n\n".encode()
        await asyncio.Event().wait()  # then quiet again

    async def cancel(self) -> None:
        return None


def _tool(name: str) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}}


@pytest.mark.parametrize("where", ["in the call's answer", "on the listening stream"])
async def test_an_announced_change_is_read_once_before_the_next_round(where: str) -> None:
    server = Announcing(in_call=where == "in the call's answer")
    transport = ScriptedTransport(server.respond)
    async with added("http://grows.test/mcp", lambda: transport) as (live, registry):
        await until(lambda: any(method(r) == "subscriptions/listen" for r in transport.requests))
        grow = registry.get("mcp__grows__grow")
        assert grow is not None and server.read == 1
        sent = len(transport.requests)
        assert (await grow.run(None, {})).ok
        assert [method(r) for r in transport.requests[sent:]] in (
            ["tools/call"],
            ["tools/call", "tools/list"],
        )
        if not server.in_call:
            server.announce.set()
        client = live.link("http://grows.test/mcp").client
        assert client is not None
        await until(lambda: client.tools_changed.is_set() or server.read > 1)  # heard
        await live.reread()  # the next round begins: what was announced is read first
        assert server.read == 2 and registry.get("mcp__grows__extra") is not None
        await live.reread()
        assert server.read == 2


async def test_a_tool_of_a_round_whose_server_was_removed_since_fails_as_a_tool_error() -> None:
    """A round keeps the tools it took (engine.turn_tools); its server may be gone by the time a call
    runs: the call fails, it never reaches a connection that was closed."""
    server = Announcing(in_call=False)
    transport = ScriptedTransport(server.respond)
    async with added("http://grows.test/mcp", lambda: transport) as (live, registry):
        grow = registry.get("mcp__grows__grow")
        assert grow is not None
        await live.remove("http://grows.test/mcp")
        sent = len(transport.requests)
        result = await grow.run(None, {})
        assert not result.ok and "removed from this workspace" in result.message
        assert [method(r) for r in transport.requests[sent:]] in ([], ["DELETE"])


async def test_a_round_waits_for_the_reading_of_an_announced_change_already_under_way() -> None:
    """The change was heard and its reading began before the round asked: the round waits for it (the
    announcement is no longer pending, the reading is), so it offers the new tool."""
    server = Announcing(in_call=True)
    server.held = asyncio.Event()
    transport = ScriptedTransport(server.respond)
    async with added("http://grows.test/mcp", lambda: transport) as (live, registry):
        grow = registry.get("mcp__grows__grow")
        assert grow is not None
        assert (await grow.run(None, {})).ok
        await until(lambda: server.read == 2)  # the reading is under way, its answer held back
        asyncio.get_running_loop().call_soon(server.held.set)
        await live.reread()
        assert registry.get("mcp__grows__extra") is not None and server.read == 2
