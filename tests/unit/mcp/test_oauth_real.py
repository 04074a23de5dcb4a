"""Sign-in end to end against a real OAuth-protected server built with the official SDK's auth
(tests/mcp_server_app.py `oauth`): discovery, dynamic registration or a pre-registered client, PKCE,
the `resource` the server binds tokens to, a tool called with the token, a refresh."""

from __future__ import annotations

import asyncio

import pytest

from agentlite.mcp.client import McpClient
from agentlite.mcp.conformance_client import follow_authorization
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.oauth import SignIn, Tokens
from agentlite.mcp.oauth_metadata import AuthPlan, discover
from agentlite.mcp.urllib_transport import UrllibTransport
from tests.mcp_oauth_provider import PRE_REGISTERED, PRE_REGISTERED_REDIRECT
from tests.mcp_servers import RunningServer

REDIRECT = "http://127.0.0.1:9/registered-callback"


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


async def challenge_of(url: str) -> str:
    with pytest.raises(McpFailure) as refused:
        await McpClient(url, UrllibTransport(timeout=10), timeout=15).connect()
    assert refused.value.kind is FailureKind.AUTH and refused.value.status == 401
    assert refused.value.challenge is not None
    return refused.value.challenge


async def planned(url: str) -> tuple[UrllibTransport, AuthPlan, SignIn]:
    """What the worker does on a 401: read the plan from the challenge, ready a sign-in."""
    transport = UrllibTransport(timeout=10)
    plan = await discover(transport, url, await challenge_of(url))
    return transport, plan, SignIn(transport)


async def authorized(
    transport: UrllibTransport, signing: SignIn, plan: AuthPlan, client_id: str, redirect: str = REDIRECT
) -> Tokens:
    """The popup's round (the server approves at once), then the code traded for tokens."""
    authorization_url, state = signing.start(plan, client_id, redirect)
    code, returned, iss = await follow_authorization(transport, authorization_url)
    assert returned == state and iss == plan.issuer
    return await signing.finish(returned, code, iss)


async def sign_in(
    url: str, *, pre_registered: str | None = None, redirect: str = REDIRECT
) -> tuple[AuthPlan, Tokens]:
    transport, plan, signing = await planned(url)
    client_id = await signing.client_id(plan, redirect_uri=redirect, pre_registered=pre_registered)
    return plan, await authorized(transport, signing, plan, client_id, redirect)


async def add_with(url: str, token: str) -> str:
    client = McpClient(url, UrllibTransport(timeout=10), token=token, timeout=15)
    result = await client.call_tool("add", {"a": 2, "b": 3})
    await client.close()
    return str(result["content"][0]["text"])


def test_sign_in_by_registration_then_call_and_refresh(oauth_server: RunningServer) -> None:
    async def scenario() -> None:
        plan, tokens = await sign_in(oauth_server.url)
        assert plan.resource == oauth_server.url and plan.scope == "mcp"
        assert plan.client_route() == "registration"
        assert tokens.scope == "mcp" and tokens.refresh_token and tokens.expires_at
        assert await add_with(oauth_server.url, tokens.access_token) == "5"
        fresh = await SignIn(UrllibTransport(timeout=10)).refresh(tokens)
        assert fresh.access_token != tokens.access_token and fresh.refresh_token != tokens.refresh_token
        assert await add_with(oauth_server.url, fresh.access_token) == "5"
        with pytest.raises(McpFailure) as old:  # the provider revokes the old token on refresh
            await add_with(oauth_server.url, tokens.access_token)
        assert old.value.kind is FailureKind.AUTH

    run(scenario())


def test_a_pre_registered_client_signs_in(oauth_server: RunningServer) -> None:
    async def scenario() -> None:
        _plan, tokens = await sign_in(
            oauth_server.url, pre_registered=PRE_REGISTERED, redirect=PRE_REGISTERED_REDIRECT
        )
        assert tokens.client_id == PRE_REGISTERED
        assert await add_with(oauth_server.url, tokens.access_token) == "5"

    run(scenario())


def test_a_code_is_good_once_and_the_refusal_is_a_sentence(oauth_server: RunningServer) -> None:
    async def scenario() -> None:
        transport, plan, signing = await planned(oauth_server.url)
        client_id = await signing.client_id(plan, redirect_uri=REDIRECT)
        first_url, _ = signing.start(plan, client_id, REDIRECT)
        code, state, iss = await follow_authorization(transport, first_url)
        tokens = await signing.finish(state, code, iss)
        second_url, _ = signing.start(plan, client_id, REDIRECT)
        _, second_state, _ = await follow_authorization(transport, second_url)
        with pytest.raises(McpFailure) as replayed:  # the first code again, under a live state
            await signing.finish(second_state, code, iss)
        assert replayed.value.kind is FailureKind.AUTH
        assert "the authorization server refused the sign-in (invalid_grant" in str(replayed.value)
        assert tokens.access_token not in str(replayed.value) and tokens.access_token not in repr(tokens)

    run(scenario())


def test_a_redirect_uri_not_registered_gets_no_code(oauth_server: RunningServer) -> None:
    async def scenario() -> None:
        transport, plan, signing = await planned(oauth_server.url)
        url, _ = signing.start(plan, PRE_REGISTERED, "http://127.0.0.1:9/elsewhere")
        with pytest.raises(McpFailure, match="did not give a code"):
            await follow_authorization(transport, url)

    run(scenario())


def test_a_token_for_another_resource_is_refused(oauth_server: RunningServer) -> None:
    """The server binds tokens to its `resource` (RFC 8707): a token asked for another is no good here."""

    async def scenario() -> None:
        transport, plan, signing = await planned(oauth_server.url)
        elsewhere = AuthPlan(**{**plan.__dict__, "resource": oauth_server.url.replace("/mcp", "/other")})
        client_id = await signing.client_id(elsewhere, redirect_uri=REDIRECT)
        tokens = await authorized(transport, signing, elsewhere, client_id)
        with pytest.raises(McpFailure) as refused:
            await add_with(oauth_server.url, tokens.access_token)
        assert refused.value.kind is FailureKind.AUTH

    run(scenario())
