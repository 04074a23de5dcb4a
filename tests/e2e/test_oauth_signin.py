"""Sign-in in Chromium against a real OAuth-protected server (the SDK's auth, tests/mcp_server_app.py
`oauth`): the worker's half (discovery, registration, PKCE, the code for tokens) runs in Python as the
worker runs it; the page's half is the real popup: the authorization URL opened from the page, the
authorization server's redirect to dist's oauth-callback.html with `iss`, the answer over the
BroadcastChannel.
Then the token endpoint answers the page's own fetch (CORS), as the worker's fetch needs."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Page

from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import McpFailure
from agentlite.mcp.oauth import SignIn
from agentlite.mcp.oauth_metadata import discover
from agentlite.mcp.urllib_transport import UrllibTransport
from tests.e2e.test_oauth_callback import LISTEN, POPUP
from tests.mcp_servers import RunningServer, start

T = TypeVar("T")


@pytest.fixture(scope="module")
def protected() -> Iterator[RunningServer]:
    server = start("oauth")
    yield server
    server.stop()


def run(work: Coroutine[Any, Any, T]) -> T:
    """Python's half on its own thread: the browser's driver holds this one's event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result(60)


async def challenge(url: str) -> str:
    try:
        await McpClient(url, UrllibTransport(timeout=10), timeout=15).connect()
    except McpFailure as failure:
        assert failure.challenge
        return failure.challenge
    raise AssertionError("the server let an unsigned client in")


async def add(url: str, token: str) -> Any:
    return await McpClient(url, UrllibTransport(timeout=10), token=token).call_tool("add", {"a": 2, "b": 3})


def test_the_popup_round_signs_in_and_the_token_endpoint_answers_the_page(
    page: Page, origin: str, protected: RunningServer
) -> None:
    redirect = f"{origin}/oauth-callback.html"
    transport = UrllibTransport(timeout=10)
    plan = run(discover(transport, protected.url, run(challenge(protected.url))))
    signing = SignIn(transport)
    client_id = run(signing.client_id(plan, redirect_uri=redirect))
    authorization_url, state = signing.start(plan, client_id, redirect)

    page.goto(f"{origin}/oauth/client.json")
    page.evaluate(LISTEN)
    with page.expect_popup():
        page.evaluate(
            "([url, features]) => { window.open(url, '_blank', features); }", [authorization_url, POPUP]
        )
    page.wait_for_function("() => window.answers.some((a) => a.via === 'channel')", timeout=30_000)
    answer = page.evaluate("() => window.answers.find((a) => a.via === 'channel').data")
    assert answer["state"] == state and answer["code"] and answer["iss"] == plan.issuer

    tokens = run(signing.finish(answer["state"], answer["code"], answer["iss"]))
    assert run(add(protected.url, tokens.access_token))["content"][0]["text"] == "5"

    form = f"grant_type=refresh_token&client_id={client_id}&refresh_token={tokens.refresh_token}"
    form += f"&resource={protected.url}"
    fetched = page.evaluate(
        """async ([url, form]) => {
          const response = await fetch(url, { method: "POST", body: new URLSearchParams(form) });
          const body = await response.json();
          return { status: response.status, fresh: typeof body.access_token === "string" };
        }""",
        [plan.token_endpoint, form],
    )
    assert fetched == {"status": 200, "fresh": True}
