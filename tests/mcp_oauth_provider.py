"""An authorization server for the tests' OAuth-protected MCP server (tests/mcp_server_app.py `oauth`),
as a provider of the official SDK (`mcp.server.auth`): the SDK serves the metadata, authorize, token and
registration endpoints (with CORS on all but authorize), checks PKCE, redirect URIs and client
registration; this provider only keeps clients, codes and tokens in memory.

It approves every authorization at once (a redirect to the client's redirect URI with a code and, given
its issuer, RFC 9207 `iss`), as a user who clicks "allow" would. `IssuerInAnswers` wraps the app to say
so in the metadata (`authorization_response_iss_parameter_supported`), which the SDK has no setting
for. A refresh rotates both tokens and revokes the old access token, so a test can tell a refreshed
token from the old one. `PRE_REGISTERED` is a client known without registration.
"""

from __future__ import annotations

import json
import secrets
import time

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SCOPE = "mcp"
PRE_REGISTERED = "agentlite-pre-registered"
PRE_REGISTERED_REDIRECT = "http://127.0.0.1:9/oauth-callback.html"
ACCESS_SECONDS = 3600


class AutoApproveProvider:
    def __init__(self, issuer: str | None = None) -> None:
        self.issuer = issuer  # exactly as the metadata states it
        self.clients: dict[str, OAuthClientInformationFull] = {
            PRE_REGISTERED: OAuthClientInformationFull(
                client_id=PRE_REGISTERED,
                redirect_uris=[AnyUrl(PRE_REGISTERED_REDIRECT)],
                token_endpoint_auth_method="none",
                grant_types=["authorization_code", "refresh_token"],
                scope=SCOPE,
            )
        }
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(24)
        assert client.client_id is not None
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(
            str(params.redirect_uri), code=code, state=params.state, iss=self.issuer
        )

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self.codes.get(authorization_code)
        return code if code and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(
            authorization_code.client_id, authorization_code.scopes, authorization_code.resource
        )

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        token = self.refresh.get(refresh_token)
        return token if token and token.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        for token, access in list(self.access.items()):
            if access.client_id == refresh_token.client_id:
                del self.access[token]
        return self._issue(refresh_token.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        access = self.access.get(token)
        if access is None or (access.expires_at is not None and access.expires_at < time.time()):
            return None
        return access

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = f"access-{secrets.token_urlsafe(24)}", f"refresh-{secrets.token_urlsafe(24)}"
        expires = int(time.time()) + ACCESS_SECONDS
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource
        )
        return OAuthToken(
            access_token=access,
            expires_in=ACCESS_SECONDS,
            scope=" ".join(scopes) or None,
            refresh_token=refresh,
        )


class IssuerInAnswers:
    """The SDK's authorization server metadata, plus `authorization_response_iss_parameter_supported`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != "/.well-known/oauth-authorization-server":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        body = bytearray()

        async def held(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            body.extend(message.get("body", b""))
            if message.get("more_body"):
                return
            answer = bytes(body)
            if start.get("status") == 200:
                document = json.loads(answer)
                document["authorization_response_iss_parameter_supported"] = True
                answer = json.dumps(document).encode()
            headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
            await send({**start, "headers": [*headers, (b"content-length", str(len(answer)).encode())]})
            await send({"type": "http.response.body", "body": answer})

        await self.app(scope, receive, held)
