"""The workspace's servers through the worker's calls (agentlite.calls `mcp.*`), against the real SDK
servers on CPython: the book kept in storage without tokens, tools joining and leaving the registry,
"always allow" reaching the approvals, and each failure as its state."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from agentlite.engine.approvals import remote_allowed
from agentlite.engine.chats import SERVERS_KEY, STORE
from agentlite.mcp.seam import HttpRequest
from agentlite.mcp.server_book import BookError, ServerBook
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.service import AgentService
from agentlite.workspace.storage import MemoryStorage
from tests.mcp_server_app import TOKEN
from tests.mcp_servers import RunningServer


def service(storage: MemoryStorage | None = None) -> tuple[AgentService, list[dict[str, Any]]]:
    posted: list[dict[str, Any]] = []
    svc = AgentService(
        posted.append,
        None,  # type: ignore[arg-type]
        lambda _s: None,  # type: ignore[arg-type,return-value]
        storage=storage or MemoryStorage(),
        mcp_transport=lambda: UrllibTransport(timeout=3),  # a listening stream idles out soon
    )
    return svc, posted


async def call(svc: AgentService, method: str, **args: Any) -> Any:
    return await svc.calls.dispatch(method, args)


async def until(svc: AgentService, url: str, reached: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The server's view once `reached` holds: a readiness condition, looked at every 50 ms for at most
    15 s (no test sleeps a guessed time for a server to have done something)."""
    for _ in range(300):
        views = await call(svc, "mcp.list")
        view = dict(next(v for v in views if v["url"] == url))
        if reached(view):
            return view
        await asyncio.sleep(0.05)
    raise AssertionError(f"the server's view never got there: {view}")


async def settled(svc: AgentService, url: str) -> dict[str, Any]:
    return await until(svc, url, lambda view: view["state"] != "connecting")


@pytest.mark.parametrize("kind", ["stateful", "stateless"])
async def test_a_server_added_lists_its_tools_in_the_registry_and_persists_without_token(
    kind: str, request: pytest.FixtureRequest
) -> None:
    server: RunningServer = request.getfixturevalue(f"{kind}_server")
    storage = MemoryStorage()
    svc, posted = service(storage)
    assert await call(svc, "mcp.start") == []  # nothing kept: nothing loaded
    await call(svc, "mcp.add", url=server.url, token="not-a-secret-but-kept-out")
    view = await settled(svc, server.url)
    assert view["state"] == "connected" and view["name"] == "test_tools_server"
    names = [t["name"] for t in view["tools"]]
    assert "mcp__test_tools_server__add" in names
    assert svc.engine.registry.get("mcp__test_tools_server__add") is not None
    assert any(m["type"] == "mcp" and m["server"]["state"] == "connected" for m in posted)
    raw = await storage.get(STORE, SERVERS_KEY)
    assert isinstance(raw, str) and server.url in raw and "kept-out" not in raw
    await call(svc, "mcp.toggle", url=server.url, tool="mcp__test_tools_server__add", enabled=False)
    assert svc.engine.registry.get("mcp__test_tools_server__add") is None
    await call(svc, "mcp.allow", url=server.url, tool="mcp__test_tools_server__echo")
    echo, fail = (svc.engine.registry.get(f"mcp__test_tools_server__{n}") for n in ("echo", "fail"))
    assert echo is not None and fail is not None and echo.server == fail.server == "test_tools_server"
    assert remote_allowed(echo, svc.engine.allowed_remote())
    assert not remote_allowed(fail, svc.engine.allowed_remote())
    await call(svc, "mcp.allow", url=server.url)
    assert remote_allowed(fail, svc.engine.allowed_remote())
    # a new start (a reload) finds the book with its flags
    again, _ = service(storage)
    assert [v["url"] for v in await call(again, "mcp.start")] == [server.url]
    view = await settled(again, server.url)
    assert {t["name"]: t["enabled"] for t in view["tools"]}["mcp__test_tools_server__add"] is False
    await call(svc, "mcp.remove", url=server.url)
    assert svc.engine.registry.get("mcp__test_tools_server__echo") is None
    assert json.loads(str(await storage.get(STORE, SERVERS_KEY))) == []


async def test_a_bearer_server_needs_auth_then_connects_with_the_token(auth_server: RunningServer) -> None:
    svc, _ = service()
    await call(svc, "mcp.add", url=auth_server.url)
    view = await settled(svc, auth_server.url)
    assert (view["state"], view["diagnosis"]) == (
        "needs-auth",
        "this server needs sign-in: sign in, or paste a token",
    )
    await call(svc, "mcp.token", url=auth_server.url, token=TOKEN)
    assert (await settled(svc, auth_server.url))["state"] == "connected"


async def test_a_missing_server_is_unreachable_with_the_reason() -> None:
    svc, _ = service()
    await call(svc, "mcp.add", url="http://127.0.0.1:9/mcp")
    view = await settled(svc, "http://127.0.0.1:9/mcp")
    assert view["state"] == "unreachable" and "127.0.0.1:9" in view["diagnosis"]


async def test_the_book_refuses_what_is_not_a_server_url_and_names_slugs_apart() -> None:
    book = ServerBook()
    for bad in ("javascript:alert(1)", "ftp://x/y", "http://user:pw@host/mcp", ""):
        with pytest.raises(BookError):
            book.add(bad)
    first, second = book.add("http://a/mcp"), book.add("http://b/mcp")
    book.name(first, "Docs Server!")
    book.name(second, "docs server")
    assert (first.slug, second.slug) == ("docs_server", "docs_server_2")
    book.name(first, "Something Else")  # a server cannot rename the tools the user allowed
    assert first.slug == "docs_server"
    assert ServerBook.parse("{not json").entries == {}


async def test_tools_wait_for_the_workers_deferred_packages(stateless_server: RunningServer) -> None:
    """In the browser the tool modules (pydantic) load after `ready`; a server that answers before must
    not build the registry: its tools join once the worker says the packages are in."""
    svc = AgentService(
        lambda _m: None,
        None,  # type: ignore[arg-type]
        lambda _s: None,  # type: ignore[arg-type,return-value]
        mcp_transport=lambda: UrllibTransport(timeout=3),
        deferred_tools=True,
    )
    await call(svc, "mcp.add", url=stateless_server.url)
    await until(svc, stateless_server.url, lambda view: bool(view["title"]))  # it has answered: named
    assert [v["state"] for v in await call(svc, "mcp.list")] == ["connecting"]
    assert svc.engine.registry._build is not None  # the built-in tools were not built (no pydantic yet)
    svc.packages_loaded()
    assert (await settled(svc, stateless_server.url))["state"] == "connected"
    assert svc.engine.registry.get("mcp__test_tools_server__add") is not None


class _LateStream:
    """A response whose chunks come `delay` seconds late: a listening stream behind a slow hop."""

    def __init__(self, inner: Any, delay: float) -> None:
        self.inner, self.delay = inner, delay
        self.status, self.headers = inner.status, inner.headers

    async def chunks(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner.chunks():
            await asyncio.sleep(self.delay)
            yield chunk

    async def cancel(self) -> None:
        await self.inner.cancel()


class _LateListening:
    """The real transport, with every listening stream (a GET, or `subscriptions/listen`) late."""

    def __init__(self, delay: float) -> None:
        self.inner, self.delay = UrllibTransport(timeout=3), delay

    async def send(self, request: HttpRequest) -> Any:
        response = await self.inner.send(request)
        body = request.body if isinstance(request.body, dict) else {}
        if request.method == "GET" or body.get("method") == "subscriptions/listen":
            return _LateStream(response, self.delay)
        return response


@pytest.mark.parametrize("kind", ["stateful", "stateless"])
async def test_a_tool_a_call_adds_is_registered_once_the_announcement_is_heard(
    kind: str, mcp_server: Callable[[str], RunningServer]
) -> None:
    """The server announces the change on its listening stream, here late, after the call's result: the
    call does not read the list on the chance that it changed; the announcement, once heard, has it read,
    so a round that begins after it offers the new tool (engine.turn_tools)."""
    server = mcp_server(kind)
    svc = AgentService(
        lambda _message: None,
        None,  # type: ignore[arg-type]
        lambda _s: None,  # type: ignore[arg-type,return-value]
        storage=MemoryStorage(),
        mcp_transport=lambda: _LateListening(delay=1.0),
    )
    await call(svc, "mcp.add", url=server.url)
    assert (await settled(svc, server.url))["state"] == "connected"
    extra = "mcp__test_tools_server__extra"
    assert svc.engine.registry.get(extra) is None
    result = await svc.engine.registry.call("mcp__test_tools_server__grow", {}, None)  # type: ignore[arg-type]
    assert result.ok
    await until(svc, server.url, lambda view: extra in [tool["name"] for tool in view["tools"]])
    assert svc.engine.registry.get(extra) is not None
    await call(svc, "mcp.remove", url=server.url)
