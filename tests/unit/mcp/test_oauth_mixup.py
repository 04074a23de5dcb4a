"""Codes go only where they came from (RFC 9207, the mix-up): scripted honest and hostile authorization
servers. Whatever a hostile server's metadata says, and whether the honest server sends `iss` or not, the
honest server's code and the PKCE verifier are never posted to the hostile token endpoint; an `iss` is
taken only when it is, string for string, the issuer the sign-in started with."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlite.mcp.failure import McpFailure
from agentlite.mcp.oauth import SignIn, require_issuer_answers
from agentlite.mcp.oauth_metadata import AuthPlan, discover
from agentlite.mcp.seam import HttpRequest, ScriptedResponse, ScriptedTransport

HONEST = "https://honest.test"
EVIL = "https://evil.test"
SERVER = EVIL + "/mcp"
HONEST_META = {
    "issuer": HONEST,
    "authorization_endpoint": HONEST + "/authorize",
    "token_endpoint": HONEST + "/token",
    "code_challenge_methods_supported": ["S256"],
    "authorization_response_iss_parameter_supported": True,
}
CLAIMS = st.one_of(
    st.sampled_from([EVIL, EVIL + "/", EVIL + "/oauth", HONEST, HONEST + "/", "https://EVIL.test", None]),
    st.text(max_size=30),
)


class Web:
    """The honest server, and a hostile MCP server acting as its own authorization server."""

    def __init__(self, prm: bool, claimed: str | None, advertises: bool) -> None:
        meta: dict[str, Any] = {
            "authorization_endpoint": EVIL + "/authorize",
            "token_endpoint": EVIL + "/token",
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": advertises,
        }
        if claimed is not None:
            meta["issuer"] = claimed
        self.documents: dict[str, dict[str, Any]] = {
            EVIL + "/.well-known/oauth-authorization-server": meta,
            HONEST + "/.well-known/oauth-authorization-server": HONEST_META,
        }
        if prm:
            prm_url = EVIL + "/.well-known/oauth-protected-resource/mcp"
            self.documents[prm_url] = {"resource": SERVER, "authorization_servers": [EVIL]}
        self.posted: dict[str, list[dict[str, list[str]]]] = {}
        self.transport = ScriptedTransport(self.answer)

    def answer(self, request: HttpRequest) -> ScriptedResponse:
        if request.method == "POST":
            assert isinstance(request.body, str)
            self.posted.setdefault(request.url, []).append(parse_qs(request.body))
            document: dict[str, Any] | None = {"access_token": "t-0123456789", "token_type": "Bearer"}
        else:
            document = self.documents.get(request.url)
        if document is None:
            return ScriptedResponse(404, [b"{}"])
        return ScriptedResponse(200, [json.dumps(document).encode()], {"content-type": "application/json"})


async def forwarded(web: Web, honest_iss: str | None) -> None:
    """Sign in to the hostile server; its authorization page sends the user on to the honest server,
    which answers the page's callback with its own code (and `iss` when it sends one)."""
    plan = await discover(web.transport, SERVER)
    signing = SignIn(web.transport)
    _, state = signing.start(plan, "client", "https://page.test/oauth-callback.html")
    await signing.finish(state, "honest-code", honest_iss)


@given(
    prm=st.booleans(), claimed=CLAIMS, advertises=st.booleans(), honest_iss=st.sampled_from([None, HONEST])
)
def test_the_honest_servers_code_never_reaches_the_hostile_token_endpoint(
    prm: bool, claimed: str | None, advertises: bool, honest_iss: str | None
) -> None:
    web = Web(prm, claimed, advertises)
    with pytest.raises(McpFailure):
        asyncio.run(forwarded(web, honest_iss))
    assert web.posted == {}


def a_plan(issuer: str | None, promised: bool = True) -> AuthPlan:
    return AuthPlan(
        SERVER, SERVER, HONEST + "/authorize", HONEST + "/token", None, None, False, issuer, promised
    )


@given(
    issuer=st.sampled_from([HONEST, HONEST + "/", HONEST + "/tenant", None]), iss=st.one_of(st.none(), CLAIMS)
)
def test_the_code_is_posted_only_when_iss_is_the_issuer_string_for_string(
    issuer: str | None, iss: str | None
) -> None:
    web = Web(True, EVIL, True)
    signing = SignIn(web.transport)
    _, state = signing.start(a_plan(issuer), "client", "r")
    if issuer is not None and iss == issuer:
        assert asyncio.run(signing.finish(state, "code", iss)).access_token == "t-0123456789"
        assert web.posted[HONEST + "/token"][0]["code"] == ["code"]
    else:
        with pytest.raises(McpFailure, match="authorization server"):
            asyncio.run(signing.finish(state, "code", iss))
        assert web.posted == {}


def test_without_iss_the_refusal_says_why_and_sends_nothing() -> None:
    web = Web(True, EVIL, False)
    signing = SignIn(web.transport)
    _, state = signing.start(a_plan(HONEST, promised=False), "client", "r")
    with pytest.raises(McpFailure, match="did not say which authorization server answered"):
        asyncio.run(signing.finish(state, "code", None))
    assert web.posted == {}


@given(claimed=CLAIMS)
def test_metadata_read_at_a_servers_origin_names_that_origin_or_is_refused(claimed: str | None) -> None:
    """The 2025-03-26 way (no resource metadata): an issuer claimed there is never another's."""
    try:
        plan = asyncio.run(discover(Web(False, claimed, True).transport, SERVER))
    except McpFailure as refused:
        assert "another issuer" in str(refused)
        return
    assert plan.issuer is not None and urlsplit(plan.issuer).netloc.lower() == "evil.test"


def test_without_any_metadata_the_issuer_is_the_servers_origin_and_promises_nothing() -> None:
    plan = asyncio.run(discover(ScriptedTransport(lambda _r: ScriptedResponse(404, [b"{}"])), SERVER))
    assert plan.issuer == EVIL and plan.issuer_in_response is False and plan.token_endpoint == EVIL + "/token"


def test_a_server_that_does_not_promise_iss_is_named_before_the_popup() -> None:
    require_issuer_answers(a_plan(HONEST))
    with pytest.raises(McpFailure) as refused:
        require_issuer_answers(a_plan(EVIL, promised=False))
    said = str(refused.value)
    assert EVIL in said and "authorization_response_iss_parameter_supported" in said
