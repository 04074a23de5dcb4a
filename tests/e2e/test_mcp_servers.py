"""Remote MCP servers in the app, against the real SDK servers (tests/mcp_servers.py): added in the
Servers panel, their tools listed and called by the scripted model with approval, "always allow", a
tool list that grows mid-chat, a server that goes away, and a bearer server whose token stays out of
every file, export and store."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send, wait_ready
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import FINAL, card, wait_status
from tests.e2e.test_ui_export import export
from tests.mcp_server_app import TOKEN
from tests.mcp_servers import (
    RunningServer,
    auth_server,
    mcp_server,
    oauth_server,
    stateful_server,
    stateless_server,
)

__all__ = ["auth_server", "mcp_server", "oauth_server", "stateful_server", "stateless_server"]
ADD = "mcp__test_tools_server__add"


def add_server(page: Page, url: str, token: str = "", remember: bool = False) -> Locator:
    if page.locator("[data-testid=mcp-panel]").is_hidden():
        page.click("[data-testid=mcp-open]")
    form = page.locator(".mcp-add-form")
    form.locator("[data-testid=mcp-url]").fill(url)
    form.locator("[data-testid=mcp-token]").fill(token)
    if remember:
        form.locator("[data-testid=mcp-remember]").check()
    form.locator("[data-testid=mcp-add]").click()
    return server_item(page, url)


def server_item(page: Page, url: str) -> Locator:
    return page.locator(f"[data-testid=mcp-server][data-url={json.dumps(url)}]")


def wait_state(page: Page, url: str, state: str) -> Locator:
    found = page.locator(f"[data-testid=mcp-server][data-url={json.dumps(url)}][data-state={state}]")
    found.wait_for(timeout=WAIT_MS)
    return found


def tools_of(request: Any) -> list[str]:
    return [t["function"]["name"] for t in request.body.get("tools") or []]


@pytest.mark.parametrize("kind", ["stateful", "stateless"])
def test_a_server_is_added_its_tools_listed_and_a_call_asks_then_reaches_the_model(
    page: Page, origin: str, model_server: ModelServer, kind: str, request: pytest.FixtureRequest
) -> None:
    server: RunningServer = request.getfixturevalue(f"{kind}_server")
    model_server.script(
        Scripted(chunks=tool_call_chunks((ADD, {"a": 2, "b": 40}))),
        Scripted(chunks=text_chunks("It is 42.")),
    )
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "connected")
    assert item.get_attribute("data-name") == "test_tools_server"
    tool = item.locator(f"[data-testid=mcp-tool][data-name={ADD}]")
    assert tool.get_attribute("data-enabled") == "true"
    send(page, "Add 2 and 40 with the server")
    target = card(page, ADD)
    wait_status(page, target, {"awaiting-approval"})
    assert target.locator("[data-testid=tool-allow-tool]").is_visible()
    assert approve_through(page, target) == "completed"
    wait_idle(page)
    assert ADD in tools_of(model_server.completions()[0])
    assert any("42" in result for result in tool_results(model_server))
    # turned off: the next request does not offer it
    tool.click()
    page.locator(f"[data-testid=mcp-tool][data-name={ADD}][data-enabled=false]").wait_for(timeout=WAIT_MS)
    model_server.script(Scripted(chunks=text_chunks("Fine.")))
    send(page, "Anything else?")
    wait_idle(page)
    assert ADD not in tools_of(model_server.completions()[-1])


def test_always_allow_makes_the_next_call_run_unasked(
    page: Page, origin: str, model_server: ModelServer, stateless_server: RunningServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks((ADD, {"a": 1, "b": 2}))),
        Scripted(chunks=tool_call_chunks((ADD, {"a": 3, "b": 4}))),
        Scripted(chunks=text_chunks("3 and 7.")),
    )
    start(page, origin, model_server)
    add_server(page, stateless_server.url)
    wait_state(page, stateless_server.url, "connected")
    send(page, "Add twice")
    first = card(page, ADD, 0)
    wait_status(page, first, {"awaiting-approval"})
    first.locator("[data-testid=tool-allow-tool]").click()
    assert wait_status(page, first, FINAL) == "completed"
    second = card(page, ADD, 1)
    assert wait_status(page, second, {"awaiting-approval", *FINAL}) == "completed"
    wait_idle(page)
    assert any("7" in result for result in tool_results(model_server))


def test_a_tool_added_mid_chat_is_offered_and_called(
    page: Page, origin: str, model_server: ModelServer, mcp_server: Callable[[str], RunningServer]
) -> None:
    server = mcp_server("stateful")
    extra = "mcp__test_tools_server__extra"
    model_server.script(
        Scripted(chunks=tool_call_chunks(("mcp__test_tools_server__grow", {}))),
        Scripted(chunks=tool_call_chunks((extra, {}))),
        Scripted(chunks=text_chunks("It grew.")),
    )
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "connected")
    send(page, "Grow the server")
    assert approve_through(page, card(page, "mcp__test_tools_server__grow")) == "completed"
    assert approve_through(page, card(page, extra)) == "completed"
    wait_idle(page)
    assert extra not in tools_of(model_server.completions()[0])
    assert extra in tools_of(model_server.completions()[1])
    assert any("extra!" in result for result in tool_results(model_server))
    item.locator(f"[data-testid=mcp-tool][data-name={extra}]").wait_for(timeout=WAIT_MS)


def test_a_server_that_goes_away_fails_the_call_as_a_tool_error_and_shows_unreachable(
    page: Page, origin: str, model_server: ModelServer, mcp_server: Callable[[str], RunningServer]
) -> None:
    server = mcp_server("stateless")
    model_server.script(
        Scripted(chunks=tool_call_chunks((ADD, {"a": 1, "b": 1}))),
        Scripted(chunks=text_chunks("The server is gone.")),
    )
    start(page, origin, model_server)
    add_server(page, server.url)
    wait_state(page, server.url, "connected")
    server.stop()
    send(page, "Add one and one")
    assert approve_through(page, card(page, ADD)) == "failed"
    wait_idle(page)
    assert any("unreachable" in result or "cannot reach" in result for result in tool_results(model_server))
    item = wait_state(page, server.url, "unreachable")
    assert item.locator("[data-testid=mcp-diagnosis]").inner_text().strip()


def stored_everywhere(page: Page, tmp_path: Path) -> str:
    """Everything the page can read back: localStorage, every IndexedDB store, the workspace's zip
    export with its history (every member, unpacked)."""
    dump = page.evaluate(
        """async () => {
          const db = await new Promise((ok, no) => {
            const r = indexedDB.open("agentlite");
            r.onsuccess = () => ok(r.result);
            r.onerror = () => no(r.error);
          });
          const out = [];
          for (const name of db.objectStoreNames) {
            const values = await new Promise((ok) => {
              const r = db.transaction(name).objectStore(name).getAll(); r.onsuccess = () => ok(r.result);
            });
            for (const v of values) out.push(typeof v === "string" ? v : new TextDecoder().decode(v));
          }
          db.close();
          return JSON.stringify({ local: { ...localStorage }, stores: out });
        }"""
    )
    with zipfile.ZipFile(io.BytesIO(export(page, True, tmp_path, "workspace.zip"))) as archive:
        exported = [archive.read(name).decode("latin-1") for name in archive.namelist()]
    return "\n".join([dump, *exported])


def test_a_bearer_server_needs_auth_then_connects_with_a_token_kept_out_of_storage(
    page: Page, origin: str, model_server: ModelServer, auth_server: RunningServer, tmp_path: Path
) -> None:
    logged: list[str] = []
    page.on("console", lambda message: logged.append(message.text))
    start(page, origin, model_server)
    item = add_server(page, auth_server.url)
    wait_state(page, auth_server.url, "needs-auth")
    assert "paste a token" in item.locator("[data-testid=mcp-diagnosis]").inner_text()
    item.locator("[data-testid=mcp-token]").fill(TOKEN)
    item.locator("[data-testid=mcp-token-use]").click()
    wait_state(page, auth_server.url, "connected")
    stored = stored_everywhere(page, tmp_path)
    assert auth_server.url in stored  # the server is kept, its token is not
    assert TOKEN not in stored
    assert not any(TOKEN in line for line in logged)
    assert page.locator(f"text={TOKEN}").count() == 0
    # remembered on this device only when asked
    page.click("[data-testid=mcp-remove]")
    item.wait_for(state="detached", timeout=WAIT_MS)
    add_server(page, auth_server.url, token=TOKEN, remember=True)
    wait_state(page, auth_server.url, "connected")
    assert TOKEN in json.dumps(page.evaluate("({...localStorage})"))


def test_the_servers_come_back_after_a_reload_and_one_gone_says_why(
    page: Page,
    origin: str,
    model_server: ModelServer,
    stateless_server: RunningServer,
    mcp_server: Callable[[str], RunningServer],
) -> None:
    gone = mcp_server("stateful")
    start(page, origin, model_server)
    add_server(page, stateless_server.url)
    wait_state(page, stateless_server.url, "connected")  # the first to answer keeps the plain slug
    add_server(page, gone.url)
    wait_state(page, gone.url, "connected")
    gone.stop()
    page.reload()
    wait_ready(page)  # the start does not wait for any server
    page.click("[data-testid=mcp-open]")
    wait_state(page, stateless_server.url, "connected")
    item = wait_state(page, gone.url, "unreachable")
    assert item.locator("[data-testid=mcp-diagnosis]").inner_text().strip()
    assert item.get_attribute("data-name") == "test_tools_server_2"  # its slug, kept from the first visit


def test_an_oauth_server_is_signed_in_to_from_the_panel_and_its_tool_called(
    page: Page, origin: str, model_server: ModelServer, oauth_server: RunningServer, tmp_path: Path
) -> None:
    """The whole round from the panel: needs-auth → Sign in → the authorization server's popup (it
    approves at once) → the callback page → the worker trades the code (PKCE) → connected, and the
    tool called with the token; the tokens are in no store, file or export."""
    model_server.script(
        Scripted(chunks=tool_call_chunks((ADD, {"a": 20, "b": 22}))),
        Scripted(chunks=text_chunks("Signed in: 42.")),
    )
    start(page, origin, model_server)
    item = add_server(page, oauth_server.url)
    wait_state(page, oauth_server.url, "needs-auth")
    with page.expect_popup(timeout=WAIT_MS):
        item.locator("[data-testid=mcp-signin]").click()
    wait_state(page, oauth_server.url, "connected")
    assert item.locator(f"[data-testid=mcp-tool][data-name={ADD}]").count() == 1
    send(page, "Add 20 and 22 with the server")
    assert approve_through(page, card(page, ADD)) == "completed"
    wait_idle(page)
    assert any("42" in result for result in tool_results(model_server))
    stored = stored_everywhere(page, tmp_path)
    assert "access_token" not in stored and "Bearer " not in stored


def test_a_server_whose_cors_list_predates_the_stateless_revision_connects_by_handshake(
    page: Page, origin: str, model_server: ModelServer, mcp_server: Callable[[str], RunningServer]
) -> None:
    """Most servers' CORS lists name no `Mcp-Method`: the browser refuses the newer revision's preflight,
    which reads as a network error, and the client still connects in the session revision."""
    server = mcp_server("oldcors")
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "connected")
    assert item.locator(f"[data-testid=mcp-tool][data-name={ADD}]").count() == 1
