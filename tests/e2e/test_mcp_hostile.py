"""A hostile MCP server in the app (tests/mcp_hostile_app.py): a listing of 120 tools with huge argument
names, descriptions and schemas stays within its share of the window with a note of what was left out; a
schema that would make the argument check exponential does not hold the worker; a server that floods
`list_changed` and changes its list after every call is read again only at a bounded rate
(docs/mcp.md, "Budgets on what a server sends")."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from agentlite.engine.tokens import estimate
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, wait_status
from tests.e2e.test_mcp_servers import add_server, tools_of, wait_state
from tests.mcp_hostile_app import FLOOD
from tests.mcp_servers import RunningServer, hostile_server

__all__ = ["hostile_server"]
WINDOW = 32_768
PING = "mcp__hostile__ping"


def stats(server: RunningServer) -> dict[str, int]:
    with urllib.request.urlopen(server.url.replace("/mcp", "/stats"), timeout=10) as answer:
        found: dict[str, int] = json.loads(answer.read())
        return found


def remote_share(request: Any) -> float:
    """The share of a 32k window the server's tools take in a request (estimated tokens)."""
    remote = [t for t in request.body.get("tools") or [] if t["function"]["name"].startswith("mcp__")]
    return estimate(json.dumps(remote, ensure_ascii=False)) / WINDOW


def test_a_huge_listing_is_offered_within_its_share_and_says_what_was_left_out(
    page: Page, origin: str, model_server: ModelServer, hostile_server: Callable[[str], RunningServer]
) -> None:
    server = hostile_server("huge")
    model_server.script(Scripted(chunks=text_chunks("Fine.")))
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "connected")
    item.locator("[data-testid=mcp-tool]").first.wait_for(timeout=WAIT_MS)
    send(page, "Hello")
    wait_idle(page)
    request = model_server.completions()[-1]
    offered = [name for name in tools_of(request) if name.startswith("mcp__hostile__")]
    assert 0 < len(offered) < 120
    assert remote_share(request) <= 0.10
    descriptions = json.dumps(request.body["tools"])
    assert f"{120 - len(offered)} more tools of the MCP server `hostile` are not offered" in descriptions
    assert "x" * 100 not in descriptions  # no argument name offered uncut
    note = item.locator("[data-testid=mcp-note]")  # the user sees it too
    note.wait_for(timeout=WAIT_MS)
    assert "not offered" in note.inner_text()


def test_a_schema_that_explodes_the_check_does_not_hold_the_worker(
    page: Page, origin: str, model_server: ModelServer, hostile_server: Callable[[str], RunningServer]
) -> None:
    server = hostile_server("schema")
    freeze = "mcp__hostile__freeze"
    model_server.script(
        Scripted(chunks=tool_call_chunks((freeze, {"v": {"k": 1}}))),
        Scripted(chunks=text_chunks("Done.")),
    )
    start(page, origin, model_server)
    add_server(page, server.url)
    wait_state(page, server.url, "connected")
    send(page, "Call freeze")
    target = card(page, freeze)
    assert wait_status(page, target, {"awaiting-approval"}) == "awaiting-approval"
    assert approve_through(page, target) == "completed"
    wait_idle(page)
    assert any("pong" in result for result in tool_results(model_server))


def test_a_list_changed_flood_and_a_list_new_after_every_call_are_read_at_a_bounded_rate(
    page: Page, origin: str, model_server: ModelServer, hostile_server: Callable[[str], RunningServer]
) -> None:
    server = hostile_server("churn")
    calls = 5
    model_server.script(
        *[Scripted(chunks=tool_call_chunks((PING, {"n": n}))) for n in range(calls)],  # unlike: no loop guard
        Scripted(chunks=text_chunks("Pinged.")),
    )
    start(page, origin, model_server)
    began = time.monotonic()
    add_server(page, server.url)
    wait_state(page, server.url, "connected")
    for _ in range(600):  # the flood has been sent (bounded: 600 looks, each after 0.1 s)
        if stats(server)["flooded"] >= FLOOD:
            break
        time.sleep(0.1)
    assert stats(server)["tools_list"] <= 3 + 1 + (time.monotonic() - began) / 5, stats(server)
    send(page, "Ping five times")
    for index in range(calls):  # each call is followed by a reading the server asks for (listChanged)
        assert approve_through(page, card(page, PING, index)) == "completed"
    wait_idle(page)
    assert sum("pong" in result for result in tool_results(model_server)) == calls
    read = stats(server)["tools_list"]
    elapsed = time.monotonic() - began
    # a burst of 3, then at most one reading per 5 s (docs/mcp.md): whatever the server sends
    assert read <= 3 + 1 + elapsed / 5, (read, elapsed)
