"""The client against real MCP servers built with the official SDK (tests/mcp_servers.py), through the
CPython transport: both revisions, tools listed and called, a tool's error, a changed tool list, a
server that floods, one that needs a token, one that goes away mid-call."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.remote_tool import remote_tools
from agentlite.mcp.seam import HttpRequest
from agentlite.mcp.tool_names import slug
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.tools.registry import ToolRegistry
from agentlite.tools.result import ToolErrorType
from tests.mcp_server_app import TOKEN
from tests.mcp_servers import RunningServer

T = TypeVar("T")
TOOLS = {"add", "echo", "fail", "flood", "slow", "picture", "weather", "grow"}


def run(work: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(asyncio.wait_for(work(), 60))


def client(server: RunningServer, transport: Any = None, **options: Any) -> McpClient:
    return McpClient(server.url, transport or UrllibTransport(timeout=10), timeout=20, **options)


class Watched:
    """The real transport, telling the test when the server has a request: the answer's headers are in.
    For a listening stream that means it is open (the session's GET), or subscribed (the SDK answers a
    `subscriptions/listen` only once it has subscribed): the readiness a test waits on, never a sleep."""

    def __init__(self) -> None:
        self.inner = UrllibTransport(timeout=10)
        self.answered: dict[str, asyncio.Event] = defaultdict(asyncio.Event)

    async def send(self, request: HttpRequest) -> Any:
        response = await self.inner.send(request)
        self.answered[_method(request)].set()
        return response

    async def until_answered(self, method: str) -> None:
        await asyncio.wait_for(self.answered[method].wait(), 20)


def _method(request: HttpRequest) -> str:
    """The JSON-RPC method a request carries, or the HTTP one (the session's listening GET)."""
    body = request.body
    if isinstance(body, str):
        body = json.loads(body) if body else None
    return str(body["method"]) if isinstance(body, dict) and "method" in body else request.method


@pytest.fixture(params=["stateful", "stateless"])
def server(request: pytest.FixtureRequest) -> RunningServer:
    found: RunningServer = request.getfixturevalue(f"{request.param}_server")
    return found


def test_each_revision_is_negotiated_not_guessed(
    stateful_server: RunningServer, stateless_server: RunningServer
) -> None:
    async def revisions() -> list[tuple[str | None, bool]]:
        found = []
        for running in (stateful_server, stateless_server):
            mcp = client(running)
            await mcp.connect()
            found.append((mcp.revision, mcp.session_id is not None))
            await mcp.close()
        return found

    assert run(revisions) == [("2025-11-25", True), ("2026-07-28", False)]


def test_tools_are_listed_and_called(server: RunningServer) -> None:
    async def session() -> tuple[set[str], dict[str, Any], str]:
        mcp = client(server)
        await mcp.connect()
        names = {tool["name"] for tool in await mcp.list_tools()}
        answer = await mcp.call_tool("add", {"a": 2, "b": 40})
        await mcp.close()
        return names, answer, mcp.server_name

    names, answer, server_name = run(session)
    assert names >= TOOLS
    assert answer["content"][0]["text"] == "42" and answer.get("isError") is False
    assert slug(server_name) == "test_tools_server"


def registry_of(mcp: McpClient, listed: list[dict[str, Any]], budget: int = 20_000) -> ToolRegistry:
    return ToolRegistry(remote_tools(mcp, slug(mcp.server_name), listed, budget))


def test_remote_tools_run_through_the_registry(server: RunningServer) -> None:
    async def calls() -> list[Any]:
        mcp = client(server)
        registry = registry_of(mcp, await mcp.list_tools() if await _connected(mcp) else [])
        results = [
            await registry.call("mcp__test_tools_server__add", {"a": 1, "b": 2}, None),  # type: ignore[arg-type]
            await registry.call("mcp__test_tools_server__fail", {"reason": "no"}, None),  # type: ignore[arg-type]
            await registry.call("mcp__test_tools_server__add", {"a": "one"}, None),  # type: ignore[arg-type]
            await registry.call("mcp__test_tools_server__weather", {"city": "Oslo"}, None),  # type: ignore[arg-type]
            await registry.call("mcp__test_tools_server__picture", {}, None),  # type: ignore[arg-type]
        ]
        await mcp.close()
        return results

    added, failed, invalid, weather, picture = run(calls)
    assert added.ok and added.message == "3"
    assert (
        not failed.ok
        and failed.error_type is ToolErrorType.REMOTE
        and "failed on purpose: no" in failed.message
    )
    assert invalid.error_type is ToolErrorType.INVALID_ARGUMENT
    assert "`arguments.a`: must be integer" in invalid.message and "`b` is required" in invalid.message
    assert weather.ok and '"celsius": 21' in weather.message
    assert picture.ok and picture.message.startswith("[image: image/png,")


async def _connected(mcp: McpClient) -> bool:
    await mcp.connect()
    return True


def test_a_flood_is_cut_to_the_budget(server: RunningServer) -> None:
    async def flood() -> Any:
        mcp = client(server)
        registry = registry_of(mcp, await mcp.list_tools(), budget=1000)
        result = await registry.call("mcp__test_tools_server__flood", {"size": 200_000}, None)  # type: ignore[arg-type]
        await mcp.close()
        return result

    result = run(flood)
    assert result.ok and result.message.startswith("x" * 1000 + "\n[cut: the first 1,000 of 200,000")


def test_an_answer_past_the_byte_limit_fails_as_too_large(server: RunningServer) -> None:
    async def flood() -> McpFailure:
        mcp = client(server, max_bytes=50_000)
        await mcp.connect()
        with pytest.raises(McpFailure) as caught:
            await mcp.call_tool("flood", {"size": 200_000})
        await mcp.close()
        return caught.value

    failure = run(flood)
    assert failure.kind is FailureKind.TOO_LARGE and failure.tool_error is ToolErrorType.TOO_LARGE


@pytest.mark.parametrize("kind", ["stateful", "stateless"])
def test_a_changed_tool_list_is_heard(mcp_server: Callable[[str], RunningServer], kind: str) -> None:
    """On the session's GET stream, or the stateless revision's `subscriptions/listen` (a server of its
    own: `grow` changes the server for everyone)."""
    running = mcp_server(kind)

    async def grow() -> tuple[bool, set[str]]:
        watched = Watched()
        mcp = client(running, watched)
        await mcp.connect()
        await mcp.list_tools()
        stop = asyncio.Event()
        listening = asyncio.ensure_future(mcp.listen(stop))
        await watched.until_answered("GET" if kind == "stateful" else "subscriptions/listen")
        await mcp.call_tool("grow", {})
        await asyncio.wait_for(mcp.tools_changed.wait(), 10)
        heard = mcp.tools_changed.is_set()
        names = {tool["name"] for tool in await mcp.list_tools()}
        stop.set()
        await listening
        await mcp.close()
        return heard, names

    heard, names = run(grow)
    assert heard and "extra" in names


def test_a_server_that_goes_away_mid_call_is_a_tool_error(mcp_server: Callable[[str], RunningServer]) -> None:
    doomed = mcp_server("stateful")

    async def call() -> Any:
        watched = Watched()
        mcp = client(doomed, watched)
        registry = registry_of(mcp, await mcp.list_tools() if await _connected(mcp) else [])
        pending = asyncio.ensure_future(
            registry.call("mcp__test_tools_server__slow", {"seconds": 30}, None)  # type: ignore[arg-type]
        )
        await watched.until_answered("tools/call")  # the server is running the call: its stream is open
        doomed.process.kill()
        return await pending

    result = run(call)
    assert not result.ok and result.error_type is ToolErrorType.UNREACHABLE
    assert "the MCP server `test_tools_server` failed" in result.message


def test_a_server_that_is_not_there_is_unreachable(mcp_server: Callable[[str], RunningServer]) -> None:
    gone = mcp_server("stateless")
    gone.stop()

    async def connect() -> McpFailure:
        with pytest.raises(McpFailure) as caught:
            await client(gone).connect()
        return caught.value

    assert run(connect).kind is FailureKind.NETWORK


def test_a_token_is_needed_and_never_shown(auth_server: RunningServer) -> None:
    async def attempts() -> tuple[McpFailure, str | None, McpFailure]:
        with pytest.raises(McpFailure) as refused:
            await client(auth_server).connect()
        mcp = client(auth_server, token=TOKEN)
        await mcp.connect()
        with pytest.raises(McpFailure) as wrong:
            await client(auth_server, token="a-wrong-token-0000").connect()
        return refused.value, mcp.revision, wrong.value

    refused, revision, wrong = run(attempts)
    assert refused.kind is FailureKind.AUTH and refused.status == 401 and "Bearer" in refused.message
    assert refused.tool_error is ToolErrorType.DENIED
    assert revision == "2026-07-28"
    assert wrong.kind is FailureKind.AUTH and "a-wrong-token" not in str(wrong)


def test_the_incomplete_cors_server_still_speaks_mcp_but_exposes_no_session_header(
    nocors_server: RunningServer,
) -> None:
    """The fixture for the connection doctor: MCP works (a CPython client knows no CORS), but its
    preflight allows none of the MCP headers and its answers expose no `Mcp-Session-Id`."""
    import urllib.request

    preflight = urllib.request.Request(
        nocors_server.url,
        method="OPTIONS",
        headers={
            "Origin": "http://page.test",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, mcp-protocol-version",
        },
    )
    try:
        with urllib.request.urlopen(preflight, timeout=10) as answer:
            allowed = answer.headers.get("access-control-allow-headers", "")
    except urllib.error.HTTPError as refused:  # Starlette refuses a preflight it does not allow
        allowed = refused.headers.get("access-control-allow-headers", "")
    assert "mcp-protocol-version" not in allowed.lower()

    async def session() -> str | None:
        mcp = client(nocors_server)
        await mcp.connect()
        revision = mcp.revision
        await mcp.close()
        return revision

    assert run(session) == "2025-11-25"
