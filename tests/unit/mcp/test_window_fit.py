"""The servers' tools are fitted as each request's tool list is built: to the tokenizer installed then
(so the first request after it came is counted in its tokens, not the stricter count before it) and to
the chat's own context window (each server a tenth of it, all servers a fifth, at most the fixed caps)
(docs/mcp.md, "Budgets on what a server sends")."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlite.engine import tokens
from agentlite.engine.budget import DEFAULT_WINDOW
from agentlite.mcp.listing import ALL_BUDGET, ALL_SHARE, DEFAULT_BUDGET, SERVER_SHARE, cost, server_budget
from agentlite.mcp.seam import ScriptedTransport
from agentlite.rooms.mcp_room import McpRoom
from buildsys.common import ROOT
from tests.unit.engine.support import Harness, say
from tests.unit.mcp.test_budgets import Server, stop

FORTY = json.loads((ROOT / "tests" / "data" / "mcp_forty_tools.json").read_text(encoding="utf-8"))["tools"]
SMALL_WINDOW = 8_192


@pytest.fixture
def no_tokenizer() -> Iterator[None]:
    tokens.use(None)
    yield
    tokens.use(None)


async def with_servers(harness: Harness, servers: list[Server]) -> McpRoom:
    """The app's wiring: the servers' room on the chat's engine, each server added and connected."""
    harness.setup()
    assert harness.engine is not None
    by_host = {f"http://{s.name.lower()}.test/mcp": s for s in servers}
    ready = asyncio.Event()
    ready.set()

    def transport() -> ScriptedTransport:
        return ScriptedTransport(lambda request: by_host[request.url].respond(request))

    room = McpRoom(harness.engine, None, lambda _message: None, ready, transport)  # type: ignore[arg-type]
    for url in by_host:
        await room.add(url, None)
    live = await room.servers()
    for _ in range(2_000):
        if all(view["state"] == "connected" for view in live.views()):
            break
        await asyncio.sleep(0.01)
    assert all(view["state"] == "connected" for view in live.views()), live.views()
    return room


def offered(request: dict[str, Any], server: str) -> list[dict[str, Any]]:
    """The server's tools as a request offers them (native `tools`)."""
    return [t for t in request.get("tools") or [] if t["function"]["name"].startswith(f"mcp__{server}__")]


def request_cost(tools: list[dict[str, Any]]) -> int:
    return sum(cost(json.dumps(tool, ensure_ascii=False)) for tool in tools)


def forty(_read: int) -> list[dict[str, Any]]:
    return FORTY


def test_a_realistic_server_offers_all_its_tools_on_the_first_request_after_the_tokenizer_came(
    no_tokenizer: None,
) -> None:
    """The servers connect at start-up, before the tokenizer (it loads with the first message): fitted
    with the stricter count, 29 of the 40 tools fit. The first request is built after the tokenizer came,
    so it offers all 40."""
    harness = Harness([say("Hi.")])

    async def scenario() -> None:
        room = await with_servers(harness, [Server("GitHub", forty)])
        assert harness.engine is not None
        before = [t.name for t in harness.engine.registry if t.name.startswith("mcp__github__")]
        assert 0 < len(before) < 40  # the count before the tokenizer is stricter
        tokens.use(tokens.estimate)  # the page installs the tokenizer before the turn starts
        await harness.turn("hi")
        [first] = harness.requests()
        assert len(offered(first, "github")) == 40
        assert (await room.views())[0]["note"] == ""
        await stop(await room.servers())

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_chat_with_an_8k_window_gives_the_servers_their_share_of_it(no_tokenizer: None) -> None:
    """With an 8k window a server's tools take at most a tenth of it, all servers' at most a fifth; a
    chat with a 32k window then has the 40 tools back (the window is each request's)."""
    harness = Harness([say("Small."), say("Large.")])
    servers = [Server("GitHub", forty), Server("Files", forty), Server("Third", forty)]

    async def scenario() -> None:
        room = await with_servers(harness, servers)
        tokens.use(tokens.estimate)
        assert harness.chat is not None
        harness.chat.configure(context_window=SMALL_WINDOW)
        await harness.turn("small")
        small = harness.requests()[0]
        share = int(SMALL_WINDOW * ALL_SHARE) // 3
        for server in ("github", "files", "third"):
            assert 0 < request_cost(offered(small, server)) <= share
            assert len(offered(small, server)) < 40
        assert request_cost(offered(small, "")) <= SMALL_WINDOW * ALL_SHARE
        notes = [view["note"] for view in await room.views()]
        assert all("not offered" in note for note in notes)
        await room.remove("http://third.test/mcp")
        await room.remove("http://files.test/mcp")
        harness.chat.configure(context_window=DEFAULT_WINDOW)
        await harness.turn("large")
        assert len(offered(harness.requests()[1], "github")) == 40
        await stop(await room.servers())

    asyncio.run(asyncio.wait_for(scenario(), 60))


@given(window=st.integers(0, 10_000_000), servers=st.integers(0, 50))
def test_a_servers_budget_is_a_share_of_the_window_within_the_caps(window: int, servers: int) -> None:
    budget = server_budget(window, servers)
    assert 0 <= budget <= min(DEFAULT_BUDGET, window * SERVER_SHARE)
    assert budget * max(1, servers) <= min(ALL_BUDGET, window * ALL_SHARE)
    if window >= DEFAULT_WINDOW and servers <= 1:
        assert budget == DEFAULT_BUDGET  # a large window keeps the fixed cap


def test_without_a_window_yet_the_fixed_caps_apply() -> None:
    assert server_budget(None, 1) == DEFAULT_BUDGET
    assert server_budget(None, 3) == ALL_BUDGET // 3
