"""Sign-in from the Servers panel through the worker's calls (`mcp.signin_begin`, `mcp.signin_finish`),
against the real OAuth-protected SDK server (tests/mcp_server_app.py `oauth`) on CPython: the popup's
part is played by following the authorization URL. Then a refused token is refreshed once, silently,
and not again right after."""

from __future__ import annotations

from typing import Any

import pytest

from agentlite.mcp.conformance_client import follow_authorization
from agentlite.mcp.failure import McpFailure
from agentlite.mcp.urllib_transport import UrllibTransport
from tests.mcp_servers import RunningServer
from tests.unit.mcp.test_servers import call, service, settled, until

REDIRECT = "http://127.0.0.1:8000/oauth-callback.html"


async def signed_in(svc: Any, url: str) -> dict[str, Any]:
    begun = await call(svc, "mcp.signin_begin", url=url, redirect_uri=REDIRECT)
    code, state, iss = await follow_authorization(UrllibTransport(timeout=10), begun["authorization_url"])
    assert state == begun["state"] and iss
    done: dict[str, Any] = await call(svc, "mcp.signin_finish", state=state, code=code, iss=iss)
    return done


async def test_a_server_that_needs_sign_in_is_signed_in_to_and_connects(oauth_server: RunningServer) -> None:
    svc, _posted = service()
    await call(svc, "mcp.add", url=oauth_server.url)
    assert (await settled(svc, oauth_server.url))["state"] == "needs-auth"
    done = await signed_in(svc, oauth_server.url)
    assert done["token"] and done["server"]["url"] == oauth_server.url
    view = await settled(svc, oauth_server.url)
    assert view["state"] == "connected" and view["tools"], view
    assert done["token"] not in repr(svc.calls)  # the page keeps it; nothing here prints it


async def test_an_unknown_or_used_sign_in_is_refused(oauth_server: RunningServer) -> None:
    svc, _posted = service()
    await call(svc, "mcp.add", url=oauth_server.url)
    await settled(svc, oauth_server.url)
    with pytest.raises(McpFailure, match="sign in again"):
        await (await svc.rooms.mcp.sign_ins()).finish("not-a-state", "code", None)


async def test_a_refused_token_is_refreshed_once_then_left_to_the_user(oauth_server: RunningServer) -> None:
    svc, _posted = service()
    await call(svc, "mcp.add", url=oauth_server.url)
    await settled(svc, oauth_server.url)
    await signed_in(svc, oauth_server.url)
    await settled(svc, oauth_server.url)
    sign_ins = await svc.rooms.mcp.sign_ins()
    refreshed: list[str] = []
    real_refresh = sign_ins.flow.refresh

    async def counted(tokens: Any) -> Any:
        refreshed.append(tokens.client_id)
        return await real_refresh(tokens)

    sign_ins.flow.refresh = counted  # type: ignore[method-assign]
    # the page hands an expired token: refused, refreshed in the background, connected again
    await call(svc, "mcp.token", url=oauth_server.url, token="expired-token")
    await until(svc, oauth_server.url, lambda view: view["state"] == "connected")
    assert len(refreshed) == 1
    # refused again right away: no second refresh, the user signs in
    await call(svc, "mcp.token", url=oauth_server.url, token="expired-token")
    await until(svc, oauth_server.url, lambda view: view["state"] == "needs-auth")
    assert len(refreshed) == 1
