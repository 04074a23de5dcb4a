"""Signing in to an MCP server: OAuth 2.1 authorization code with PKCE, as a public client of a page.

`SignIn` keeps each pending authorization (its state, PKCE verifier, plan, client id and redirect URI)
in memory only: `start` builds the authorization URL the page opens in a popup; `finish` checks the
state that came back, then trades the code (with the verifier and the RFC 8707 `resource`) for
`Tokens`, only when the redirect's RFC 9207 `iss` is the issuer the sign-in started with: a code is
sent to no other token endpoint than its issuer's. `refresh` trades a refresh token. `client_id` picks
how the client is known to the authorization server: its Client ID Metadata Document URL when the
server takes one, else a client id the user registered, else dynamic client registration (RFC 7591).
Every request goes over the transport seam; nothing here logs a token, and `Tokens` never shows one in
its repr.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from agentlite.errors import ModelError
from agentlite.mcp import pkce
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.oauth_metadata import AuthPlan
from agentlite.mcp.seam import HttpRequest, HttpTransport

CLIENT_NAME = "AgentLite"
PENDING_LIMIT = 16  # sign-ins started and not finished; the oldest is forgotten past it
PENDING_SECONDS = 600.0  # a sign-in not finished in 10 minutes is forgotten
MAX_ANSWER_BYTES = 256 * 1024
NO_CORS = "the authorization server's token endpoint did not answer this page (no CORS?)"
FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class Tokens:
    """What a sign-in gives. The two tokens are secrets: never logged, masked in the repr."""

    access_token: str = field(repr=False)
    refresh_token: str | None = field(repr=False)
    expires_at: float | None  # seconds since the epoch; None when the server did not say
    scope: str | None
    token_endpoint: str  # what `refresh` needs, none of it secret
    client_id: str
    resource: str

    def __repr__(self) -> str:
        refresh = "set" if self.refresh_token else "none"
        shown = f"expires_at={self.expires_at}, scope={self.scope!r}"
        return f"Tokens(access_token=***, refresh_token={refresh}, {shown})"

    def expired(self, now: float, margin: float = 60.0) -> bool:
        return self.expires_at is not None and now >= self.expires_at - margin

    def to_json(self) -> dict[str, Any]:
        """The fields as plain JSON, to keep them where the page keeps secrets."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tokens | None:
        """Tokens kept by `to_json`, or None when what was kept is not that."""
        text = {name: data.get(name) for name in ("access_token", "token_endpoint", "client_id", "resource")}
        refresh, scope, expires = data.get("refresh_token"), data.get("scope"), data.get("expires_at")
        if not all(isinstance(value, str) and value for value in text.values()):
            return None
        return cls(
            access_token=str(text["access_token"]),
            refresh_token=refresh if isinstance(refresh, str) and refresh else None,
            expires_at=float(expires) if isinstance(expires, int | float) else None,
            scope=scope if isinstance(scope, str) else None,
            token_endpoint=str(text["token_endpoint"]),
            client_id=str(text["client_id"]),
            resource=str(text["resource"]),
        )


@dataclass
class _Pending:
    plan: AuthPlan
    client_id: str
    redirect_uri: str
    verifier: str
    started: float


def _with_query(url: str, params: dict[str, str]) -> str:
    parts = urlsplit(url)
    query = "&".join(item for item in (parts.query, urlencode(params)) if item)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def _refusal(document: dict[str, Any] | None, status: int, what: str) -> McpFailure:
    """A sentence for an error answer of the authorization server (RFC 6749 §5.2 `error`)."""
    error = document.get("error") if document else None
    detail = document.get("error_description") if document else None
    said = str(error)[:80] if isinstance(error, str) else f"HTTP {status}"
    if isinstance(detail, str) and detail:
        said += f": {detail[:200]}"
    return McpFailure(FailureKind.AUTH, f"the authorization server refused {what} ({said})", status=status)


def require_issuer_answers(plan: AuthPlan) -> None:
    """Refuse, before any popup, an authorization server that does not promise to name itself in its
    answers (RFC 9207): `finish` would refuse every answer it sends, after the user signed in."""
    if plan.issuer_in_response:
        return
    name = (plan.issuer or plan.authorization_endpoint)[:200]
    raise McpFailure(
        FailureKind.AUTH,
        f"the authorization server {name} does not say it names itself in its answers (RFC 9207, "
        "authorization_response_iss_parameter_supported): a code it sent could not be told from another "
        "server's, so AgentLite does not sign in there. Paste a token instead.",
    )


def _check_answerer(plan: AuthPlan, iss: str | None) -> None:
    """The code and the verifier go to this plan's token endpoint only when the answer names this plan's
    issuer, string for string (RFC 9207 §2.4): else the code may be another server's, forwarded here by
    a server that wants to redeem it (the mix-up)."""
    if iss is None:
        raise McpFailure(
            FailureKind.AUTH,
            "the sign-in answer did not say which authorization server answered (RFC 9207 iss): "
            "its code is sent nowhere",
        )
    if plan.issuer is None or iss != plan.issuer:
        raise McpFailure(
            FailureKind.AUTH,
            f"this sign-in answer comes from another authorization server ({iss[:200]}, not "
            f"{(plan.issuer or 'none')[:200]}): its code is sent nowhere",
        )


class SignIn:
    def __init__(self, transport: HttpTransport, *, clock: Callable[[], float] = time.time) -> None:
        self.transport = transport
        self.clock = clock
        self._pending: dict[str, _Pending] = {}

    async def client_id(
        self,
        plan: AuthPlan,
        *,
        redirect_uri: str,
        metadata_document_url: str | None = None,
        pre_registered: str | None = None,
    ) -> str:
        """The client id to sign in with: the metadata document URL when the authorization server takes
        one, else the id the user registered, else one registered now (RFC 7591)."""
        route = plan.client_route(has_client_id=bool(pre_registered))
        if route == "metadata_document" and metadata_document_url:
            return metadata_document_url
        if pre_registered:
            return pre_registered
        if plan.registration_endpoint is None:
            raise McpFailure(
                FailureKind.AUTH,
                "the authorization server takes no registration: give the client id registered there",
            )
        return await self._register(plan.registration_endpoint, redirect_uri)

    async def _register(self, endpoint: str, redirect_uri: str) -> str:
        metadata = {
            "client_name": CLIENT_NAME,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        status, document = await self._exchange(
            HttpRequest("POST", endpoint, headers, metadata), "registration"
        )
        client_id = document.get("client_id") if document else None
        if status not in (200, 201) or not isinstance(client_id, str) or not client_id:
            raise _refusal(document, status, "to register this page as a client")
        return client_id

    def start(self, plan: AuthPlan, client_id: str, redirect_uri: str) -> tuple[str, str]:
        """The authorization URL to open, and the state that will come back with the code."""
        self._forget_stale()
        verifier, state = pkce.verifier(), pkce.state()
        self._pending[state] = _Pending(plan, client_id, redirect_uri, verifier, self.clock())
        params = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "state": state,
            "code_challenge": pkce.challenge(verifier),
            "code_challenge_method": pkce.METHOD,
            "resource": plan.resource,
        }
        if plan.scope:
            params["scope"] = plan.scope
        return _with_query(plan.authorization_endpoint, params), state

    def _forget_stale(self) -> None:
        now = self.clock()
        for state, pending in list(self._pending.items()):
            if now - pending.started > PENDING_SECONDS:
                del self._pending[state]
        while len(self._pending) >= PENDING_LIMIT:
            del self._pending[next(iter(self._pending))]

    async def finish(self, state: str, code: str, iss: str | None) -> Tokens:
        """Trade the code for tokens; the state must be one `start` gave, and is used once. `iss` is the
        redirect's own (RFC 9207): the code is sent only when it is the issuer this sign-in started with."""
        self._forget_stale()
        pending = self._pending.pop(state, None)
        if pending is None:
            raise McpFailure(
                FailureKind.AUTH, "this sign-in answer matches no sign-in in progress (expired or forged)"
            )
        _check_answerer(pending.plan, iss)
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": pending.redirect_uri,
            "client_id": pending.client_id,
            "code_verifier": pending.verifier,
            "resource": pending.plan.resource,
        }
        return await self._token(
            pending.plan.token_endpoint, form, pending.client_id, pending.plan.resource, pending.plan.scope
        )

    async def refresh(self, tokens: Tokens) -> Tokens:
        """New tokens from the refresh token (kept when the server sends no new one)."""
        if not tokens.refresh_token:
            raise McpFailure(
                FailureKind.AUTH, "the sign-in has expired and gave no refresh token: sign in again"
            )
        form = {
            "grant_type": "refresh_token",
            "refresh_token": tokens.refresh_token,
            "client_id": tokens.client_id,
            "resource": tokens.resource,
        }
        fresh = await self._token(
            tokens.token_endpoint, form, tokens.client_id, tokens.resource, tokens.scope
        )
        return fresh if fresh.refresh_token else replace(fresh, refresh_token=tokens.refresh_token)

    async def _token(
        self, endpoint: str, form: dict[str, str], client_id: str, resource: str, scope: str | None
    ) -> Tokens:
        headers = {"Content-Type": FORM, "Accept": "application/json"}
        status, document = await self._exchange(
            HttpRequest("POST", endpoint, headers, urlencode(form)), "token"
        )
        access = document.get("access_token") if document else None
        if status != 200 or document is None or not isinstance(access, str) or not access:
            raise _refusal(document, status, "the sign-in")
        kind = document.get("token_type")
        if isinstance(kind, str) and kind.lower() != "bearer":
            raise McpFailure(
                FailureKind.AUTH, f"the authorization server gave a {kind[:40]} token, not a bearer token"
            )
        lifetime = document.get("expires_in")
        refresh, granted = document.get("refresh_token"), document.get("scope")
        return Tokens(
            access_token=access,
            refresh_token=refresh if isinstance(refresh, str) and refresh else None,
            expires_at=self.clock() + lifetime
            if isinstance(lifetime, int | float) and lifetime > 0
            else None,
            scope=granted if isinstance(granted, str) else scope,
            token_endpoint=endpoint,
            client_id=client_id,
            resource=resource,
        )

    async def _exchange(self, request: HttpRequest, what: str) -> tuple[int, dict[str, Any] | None]:
        """POST to the authorization server: the status and the JSON object answered (None if none)."""
        try:
            response = await self.transport.send(request)
            body = bytearray()
            try:
                async for chunk in response.chunks():
                    body += chunk
                    if len(body) > MAX_ANSWER_BYTES:
                        raise McpFailure(
                            FailureKind.AUTH, f"the authorization server's {what} answer is too large"
                        )
            finally:
                await response.cancel()
        except ModelError as error:
            where = (
                NO_CORS
                if what == "token"
                else f"the authorization server's {what} endpoint did not answer this page (no CORS?)"
            )
            raise McpFailure(FailureKind.AUTH, f"{where}: {error.message}") from error
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            document = None
        return response.status, document if isinstance(document, dict) else None
