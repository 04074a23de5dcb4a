"""Sign-in logic against scripted servers: the challenge parser, discovery's order and refusals, scope
selection, the client id routes, state and PKCE, the token endpoint's answers and failures, and that no
token is ever shown."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlite.errors import ErrorType, ModelError
from agentlite.mcp import pkce
from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.oauth import NO_CORS, PENDING_SECONDS, SignIn, Tokens
from agentlite.mcp.oauth_metadata import AuthPlan, discover, names_server, parse_challenge
from agentlite.mcp.seam import HttpRequest, ScriptedResponse, ScriptedTransport

SERVER = "https://mcp.test/tools/mcp"
PRM_URL = "https://mcp.test/.well-known/oauth-protected-resource/tools/mcp"
AS = "https://auth.test"
AS_META = {
    "issuer": AS,
    "authorization_endpoint": AS + "/authorize",
    "token_endpoint": AS + "/token",
    "registration_endpoint": AS + "/register",
    "code_challenge_methods_supported": ["S256"],
}
JSON = {"content-type": "application/json"}


def ok(document: dict[str, Any], status: int = 200) -> ScriptedResponse:
    return ScriptedResponse(status, [json.dumps(document).encode()], JSON)


def site(documents: dict[str, dict[str, Any]]) -> ScriptedTransport:
    """A web of metadata documents by URL; every other URL is 404."""

    def answer(request: HttpRequest) -> ScriptedResponse:
        document = documents.get(request.url)
        return ok(document) if document is not None else ScriptedResponse(404, [b"{}"])

    return ScriptedTransport(answer)


def prm(**extra: Any) -> dict[str, Any]:
    return {"resource": SERVER, "authorization_servers": [AS], **extra}


def plan_of(transport: ScriptedTransport, header: str | None = None, held: str | None = None) -> AuthPlan:
    return asyncio.run(discover(transport, SERVER, header, held_scope=held))


def test_the_challenge_parser_reads_bearer_parameters() -> None:
    header = 'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x.test/m?q=\\"1\\""'
    assert parse_challenge(header) == {
        "error": "insufficient_scope",
        "scope": "a b",
        "resource_metadata": 'https://x.test/m?q="1"',
    }
    assert parse_challenge('Basic realm="x", Bearer scope=read') == {"scope": "read"}
    assert parse_challenge("Basic realm=x") == {} and parse_challenge(None) == {}


@given(st.text(max_size=200))
def test_the_challenge_parser_never_raises(header: str) -> None:
    assert isinstance(parse_challenge(header), dict)


def test_discovery_follows_the_header_then_the_well_known_paths_in_order() -> None:
    transport = site(
        {
            AS + "/.well-known/openid-configuration": AS_META,
            SERVER.replace("/tools/mcp", "") + "/.well-known/oauth-protected-resource": prm(),
        }
    )
    plan = plan_of(transport, 'Bearer resource_metadata="https://mcp.test/meta"')
    assert [r.url for r in transport.requests] == [
        "https://mcp.test/meta",
        PRM_URL,
        "https://mcp.test/.well-known/oauth-protected-resource",
        AS + "/.well-known/oauth-authorization-server",
        AS + "/.well-known/openid-configuration",
    ]
    assert plan.resource == SERVER and plan.token_endpoint == AS + "/token"


def test_an_issuer_with_a_path_is_asked_in_the_spec_order() -> None:
    tenant = AS + "/tenant1"
    transport = site(
        {
            PRM_URL: {**prm(), "authorization_servers": [tenant]},
            tenant + "/.well-known/openid-configuration": {**AS_META, "issuer": tenant},
        }
    )
    plan_of(transport)
    assert [r.url for r in transport.requests][1:] == [
        AS + "/.well-known/oauth-authorization-server/tenant1",
        AS + "/.well-known/openid-configuration/tenant1",
        tenant + "/.well-known/openid-configuration",
    ]


def test_metadata_for_another_resource_is_refused() -> None:
    transport = site({PRM_URL: {**prm(), "resource": "https://evil.test/mcp"}})
    with pytest.raises(McpFailure, match="another resource") as refused:
        plan_of(transport)
    assert refused.value.kind is FailureKind.AUTH
    assert names_server("https://mcp.test/tools", SERVER) and not names_server(
        "https://mcp.test/tool", SERVER
    )


@pytest.mark.parametrize("methods", [None, ["plain"]])
def test_an_authorization_server_without_s256_is_refused(methods: list[str] | None) -> None:
    meta = {k: v for k, v in AS_META.items() if k != "code_challenge_methods_supported"}
    if methods is not None:
        meta["code_challenge_methods_supported"] = methods
    transport = site({PRM_URL: prm(), AS + "/.well-known/oauth-authorization-server": meta})
    with pytest.raises(McpFailure, match="PKCE with S256"):
        plan_of(transport)


@pytest.mark.parametrize(
    ("servers", "meta", "said"),
    [
        (["http://auth.example/"], AS_META, "not an https URL"),
        ([AS], {**AS_META, "issuer": "https://other.test"}, "another issuer"),
        ([AS], {**AS_META, "authorization_endpoint": "javascript:alert(1)"}, "authorization_endpoint is not"),
        ([AS], {**AS_META, "token_endpoint": "http://auth.test/token"}, "token_endpoint is not"),
    ],
)
def test_an_authorization_server_off_https_or_under_another_name_is_refused(
    servers: list[str], meta: dict[str, Any], said: str
) -> None:
    documents = {PRM_URL: {**prm(), "authorization_servers": servers}}
    documents["http://auth.example/.well-known/oauth-authorization-server"] = meta
    documents[AS + "/.well-known/oauth-authorization-server"] = meta
    with pytest.raises(McpFailure, match=said):
        plan_of(site(documents))


def test_loopback_may_be_plain_http() -> None:
    local = "http://127.0.0.1:5/mcp"
    meta = {**AS_META, "issuer": "http://127.0.0.1:5", "authorization_endpoint": "http://127.0.0.1:5/a"}
    meta["token_endpoint"] = "http://127.0.0.1:5/t"
    documents = {
        "http://127.0.0.1:5/.well-known/oauth-protected-resource/mcp": {
            "resource": local,
            "authorization_servers": ["http://127.0.0.1:5"],
        },
        "http://127.0.0.1:5/.well-known/oauth-authorization-server": meta,
    }
    plan = asyncio.run(discover(site(documents), local, None))
    assert plan.token_endpoint == "http://127.0.0.1:5/t" and plan.registration_endpoint == AS + "/register"


def test_without_metadata_the_2025_03_26_endpoints_are_used() -> None:
    plan = plan_of(site({}))
    assert plan.authorization_endpoint == "https://mcp.test/authorize"
    assert plan.token_endpoint == "https://mcp.test/token" and plan.resource == SERVER


def test_scope_from_the_challenge_then_the_resource_and_step_up_joins_them() -> None:
    meta = {**AS_META, "scopes_supported": ["read", "write", "offline_access"]}
    documents = {
        PRM_URL: prm(scopes_supported=["read"]),
        AS + "/.well-known/oauth-authorization-server": meta,
    }
    assert plan_of(site(documents)).scope == "read offline_access"
    assert plan_of(site(documents), 'Bearer scope="write"').scope == "write offline_access"
    stepped = plan_of(site(documents), 'Bearer error="insufficient_scope", scope="write"', held="read")
    assert stepped.scope == "read write offline_access"
    documents[PRM_URL] = prm()
    documents[AS + "/.well-known/oauth-authorization-server"] = AS_META
    assert plan_of(site(documents)).scope is None


def test_the_client_id_route_prefers_the_metadata_document_then_the_given_id_then_registration() -> None:
    registered: list[dict[str, Any]] = []

    def register(request: HttpRequest) -> ScriptedResponse:
        assert isinstance(request.body, dict)
        registered.append(request.body)
        return ok({"client_id": "dyn-1"}, 201)

    plan = plan_of(site({PRM_URL: prm(), AS + "/.well-known/oauth-authorization-server": AS_META}))
    signing = SignIn(ScriptedTransport(register))
    cimd = AuthPlan(**{**plan.__dict__, "metadata_document_supported": True})
    doc = "https://page.test/oauth/client.json"
    assert (
        asyncio.run(signing.client_id(cimd, redirect_uri="r", metadata_document_url=doc, pre_registered="x"))
        == doc
    )
    assert (
        asyncio.run(signing.client_id(plan, redirect_uri="r", metadata_document_url=doc, pre_registered="x"))
        == "x"
    )
    assert asyncio.run(signing.client_id(plan, redirect_uri="https://page.test/cb")) == "dyn-1"
    assert registered[0]["redirect_uris"] == ["https://page.test/cb"]
    assert registered[0]["token_endpoint_auth_method"] == "none"
    closed = AuthPlan(**{**plan.__dict__, "registration_endpoint": None})
    with pytest.raises(McpFailure, match="give the client id"):
        asyncio.run(signing.client_id(closed, redirect_uri="r"))


def a_plan(scope: str | None = "read") -> AuthPlan:
    return AuthPlan(SERVER, SERVER, AS + "/authorize?tenant=1", AS + "/token", None, scope, False, AS)


def token_server(
    document: dict[str, Any], status: int = 200
) -> tuple[ScriptedTransport, list[dict[str, list[str]]]]:
    forms: list[dict[str, list[str]]] = []

    def answer(request: HttpRequest) -> ScriptedResponse:
        assert isinstance(request.body, str)
        assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
        forms.append(parse_qs(request.body))
        return ok(document, status)

    return ScriptedTransport(answer), forms


def test_start_sends_pkce_s256_state_and_resource_and_finish_sends_the_verifier() -> None:
    transport, forms = token_server(
        {
            "access_token": "at-0123456789abcdef",
            "token_type": "bearer",
            "expires_in": 60,
            "refresh_token": "rt-0123456789abcdef",
        }
    )
    signing = SignIn(transport, clock=lambda: 1000.0)
    url, state = signing.start(a_plan(), "client-1", "https://page.test/cb")
    query = parse_qs(urlsplit(url).query)
    assert (
        query["tenant"] == ["1"] and query["state"] == [state] and query["code_challenge_method"] == ["S256"]
    )
    assert query["resource"] == [SERVER] and query["scope"] == ["read"] and query["response_type"] == ["code"]
    tokens = asyncio.run(signing.finish(state, "code-1", AS))
    assert pkce.challenge(forms[0]["code_verifier"][0]) == query["code_challenge"][0]
    assert forms[0]["resource"] == [SERVER] and forms[0]["redirect_uri"] == ["https://page.test/cb"]
    assert tokens.expires_at == 1060.0 and tokens.scope == "read" and tokens.client_id == "client-1"
    assert "at-0123456789abcdef" not in repr(tokens) and "rt-0123456789abcdef" not in repr(tokens)
    assert Tokens.from_json(json.loads(json.dumps(tokens.to_json()))) == tokens
    assert Tokens.from_json({"access_token": 5}) is None
    with pytest.raises(McpFailure, match="matches no sign-in"):  # a state is good once
        asyncio.run(signing.finish(state, "code-1", AS))


def test_a_forged_or_stale_state_is_refused_before_anything_is_sent() -> None:
    now = [0.0]
    transport, forms = token_server({"access_token": "x"})
    signing = SignIn(transport, clock=lambda: now[0])
    _, state = signing.start(a_plan(), "c", "https://page.test/cb")
    with pytest.raises(McpFailure, match="matches no sign-in"):
        asyncio.run(signing.finish("forged", "code", AS))
    now[0] = PENDING_SECONDS + 1
    with pytest.raises(McpFailure, match="matches no sign-in"):
        asyncio.run(signing.finish(state, "code", AS))
    assert forms == []
    assert "scope" not in parse_qs(urlsplit(signing.start(a_plan(None), "c", "r")[0]).query)


def test_an_answer_from_another_issuer_is_refused() -> None:
    """RFC 9207: every answer must name the issuer, its own (tests/unit/mcp/test_oauth_mixup.py)."""
    transport, forms = token_server({"access_token": "at-0123456789abcdef"})
    signing = SignIn(transport)
    promised = AuthPlan(**{**a_plan().__dict__, "issuer_in_response": True})
    for plan, iss in ((promised, None), (promised, "https://evil.test"), (a_plan(), None)):
        _, state = signing.start(plan, "c", "r")
        with pytest.raises(McpFailure, match=r"another authorization server|did not say which"):
            asyncio.run(signing.finish(state, "code", iss))
    assert forms == []
    _, state = signing.start(promised, "c", "r")
    assert asyncio.run(signing.finish(state, "code", AS)).access_token == "at-0123456789abcdef"


def test_the_token_endpoint_refusal_and_silence_are_sentences() -> None:
    transport, _ = token_server({"error": "invalid_grant", "error_description": "code expired"}, 400)
    signing = SignIn(transport)
    _, state = signing.start(a_plan(), "c", "r")
    with pytest.raises(McpFailure) as refused:
        asyncio.run(signing.finish(state, "code", AS))
    assert (
        str(refused.value)
        == "the authorization server refused the sign-in (invalid_grant: code expired) (HTTP 400)"
    )

    def silent(_request: HttpRequest) -> ScriptedResponse:
        raise ModelError(ErrorType.NETWORK, "Failed to fetch")

    signing = SignIn(ScriptedTransport(silent))
    _, state = signing.start(a_plan(), "c", "r")
    with pytest.raises(McpFailure) as unreachable:
        asyncio.run(signing.finish(state, "code", AS))
    assert unreachable.value.kind is FailureKind.AUTH and str(unreachable.value).startswith(NO_CORS)


def test_refresh_keeps_the_refresh_token_the_server_did_not_replace() -> None:
    transport, forms = token_server({"access_token": "new-access-0123456789", "token_type": "Bearer"})
    old = Tokens("old-access", "refresh-0123456789", None, "read", AS + "/token", "c", SERVER)
    fresh = asyncio.run(SignIn(transport).refresh(old))
    assert forms[0]["grant_type"] == ["refresh_token"] and forms[0]["resource"] == [SERVER]
    assert fresh.access_token == "new-access-0123456789" and fresh.refresh_token == old.refresh_token
    assert fresh.scope == "read"
    with pytest.raises(McpFailure, match="sign in again"):
        asyncio.run(SignIn(transport).refresh(Tokens("a", None, None, None, AS + "/token", "c", SERVER)))


def test_a_401_carries_the_challenge_and_a_new_token_is_sent() -> None:
    header = 'Bearer resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/tools/mcp"'
    seen: list[str | None] = []

    def answer(request: HttpRequest) -> ScriptedResponse:
        seen.append(request.headers.get("Authorization"))
        return ScriptedResponse(401, [b"{}"], {"www-authenticate": header})

    client = McpClient(SERVER, ScriptedTransport(answer))
    with pytest.raises(McpFailure) as refused:
        asyncio.run(client.connect())
    assert refused.value.kind is FailureKind.AUTH and refused.value.challenge == header
    client.token = "signed-in-token-0123"
    with pytest.raises(McpFailure):
        asyncio.run(client.connect())
    assert seen == [None, "Bearer signed-in-token-0123"]
