"""A real MCP server for the tests, built with the official Python SDK (`mcp`, test extras).

`python tests/mcp_server_app.py KIND PORT` serves `/mcp` on 127.0.0.1:PORT. KIND:
- `stateful`: the session-based revision only (`initialize`, `Mcp-Session-Id`); a request at a newer
  revision is refused the way a server from before 2026 refuses it (400, no session id), so a client
  must fall back to the handshake;
- `stateless`: the SDK's stateless app, which answers the 2026-07-28 revision (`server/discover`);
- `nocors`: like `stateful`, but its CORS answer forgets the MCP headers (no `mcp-protocol-version`
  allowed, no `mcp-session-id` exposed), as many servers in the field do;
- `auth`: like `stateless`, behind a bearer token (`MCP_TEST_TOKEN`); without it, 401 and
  `WWW-Authenticate: Bearer`;
- `oauth`: like `stateless`, protected the way the MCP authorization spec says, with the SDK's own
  auth: protected resource metadata at `/.well-known/oauth-protected-resource/mcp`, and an authorization
  server on the same origin (tests/mcp_oauth_provider.py: approves at once, PKCE, refresh, dynamic
  registration, a pre-registered client) that binds tokens to the `resource` `http://127.0.0.1:PORT/mcp`.

Kinds that get CORS wrong one way each (the connection doctor's cases, docs/mcp.md):
- `noorigin`: like `stateful`, with no CORS headers at all;
- `noexpose`: like `stateful`, every MCP header allowed, none exposed (`mcp-session-id` unreadable);
- `authhidden`: like `auth`, with `www-authenticate` not exposed;
- `oldcors`: like `stateful`, its CORS list the one servers wrote before 2026 (`mcp-protocol-version`,
  `mcp-session-id`, `last-event-id`, but no `mcp-method` or `mcp-name`), so a browser's preflight for
  the newer revision fails while the handshake goes through;
- `options401`: like `auth`, but the token is asked of every request, OPTIONS preflights included
  (its 401 carries `Access-Control-Allow-Origin`, so a simple request reads it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Any

import uvicorn
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from mcp.server.transport_security import TransportSecuritySettings
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN = "test-token-0123456789"
OLD_HEADERS = ["content-type", "authorization", "mcp-protocol-version", "mcp-session-id", "last-event-id"]
MCP_HEADERS = [*OLD_HEADERS, "mcp-method", "mcp-name"]
EXPOSED = ["mcp-session-id", "www-authenticate"]
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")


def build_server(port: int = 0, oauth: bool = False) -> MCPServer:
    if not oauth:
        server = MCPServer("Test Tools Server")
    else:
        from mcp_oauth_provider import SCOPE, AutoApproveProvider  # a sibling: this file runs as a script

        auth = AuthSettings(
            issuer_url=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            resource_server_url=f"http://127.0.0.1:{port}/mcp",  # type: ignore[arg-type]
            required_scopes=[SCOPE],
            validate_token_resource=True,
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
            ),
            revocation_options=RevocationOptions(enabled=True),
        )
        provider = AutoApproveProvider(str(auth.issuer_url))
        server = MCPServer("Test Tools Server", auth_server_provider=provider, auth=auth)

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Repeat the text."""
        return text

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails with the given reason."""
        raise ToolError(f"failed on purpose: {reason}")

    @server.tool()
    def flood(size: int) -> str:
        """Answer `size` characters."""
        return "x" * size

    @server.tool()
    async def slow(seconds: float) -> str:
        """Wait, then answer."""
        await asyncio.sleep(seconds)
        return "done"

    @server.tool()
    def picture() -> Image:
        """A one-pixel PNG."""
        return Image(data=PIXEL, format="png")

    @server.tool()
    def weather(city: str) -> dict[str, Any]:
        """Structured content."""
        return {"city": city, "celsius": 21}

    @server.tool()
    async def grow(ctx: Context) -> str:
        """Add a tool named `extra` and announce that the tool list changed."""
        server.add_tool(lambda: "extra!", name="extra", description="Added at run time.")
        with contextlib.suppress(Exception):  # the stateless revision has no session: listeners hear it below
            await ctx.session.send_tool_list_changed()
        await ctx.notify_tools_changed()
        return "grown"

    return server


class LegacyOnly:
    """Refuses the 2026-07-28 revision as a server from before it does: no session id, 400."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        version = dict(scope.get("headers", [])).get(b"mcp-protocol-version", b"").decode()
        if scope["type"] == "http" and version.startswith("2026"):
            body = {
                "jsonrpc": "2.0",
                "id": "server-error",
                "error": {"code": -32600, "message": "Bad Request: Missing session ID"},
            }
            await _respond(send, 400, json.dumps(body).encode())
            return
        await self.app(scope, receive, send)


class BearerOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", []))
        preflight = scope.get("method") == "OPTIONS"
        if (
            scope["type"] == "http"
            and not preflight
            and headers.get(b"authorization") != f"Bearer {TOKEN}".encode()
        ):
            await _respond(
                send, 401, b'{"error":"invalid_token"}', [(b"www-authenticate", b'Bearer realm="mcp"')]
            )
            return
        await self.app(scope, receive, send)


class BearerEverywhere:
    """Asks for the token before anything else, also of a preflight (which never carries one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers", []))
        if scope["type"] == "http" and headers.get(b"authorization") != f"Bearer {TOKEN}".encode():
            cors = [
                (b"access-control-allow-origin", b"*"),
                (b"access-control-expose-headers", b"www-authenticate"),
            ]
            await _respond(
                send, 401, b'{"error":"invalid_token"}', [(b"www-authenticate", b'Bearer realm="mcp"'), *cors]
            )
            return
        await self.app(scope, receive, send)


async def _respond(
    send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    headers = [(b"content-type", b"application/json"), *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def build_app(kind: str, port: int = 0) -> ASGIApp:
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    stateless = kind in ("stateless", "auth", "oauth", "authhidden", "options401")
    server = build_server(port, oauth=kind == "oauth")
    app: ASGIApp = server.streamable_http_app(stateless_http=stateless, transport_security=security)
    if not stateless:
        app = LegacyOnly(app)
    if kind == "oauth":
        from mcp_oauth_provider import IssuerInAnswers  # its redirects carry `iss`: the metadata says so

        app = IssuerInAnswers(app)
    if kind in ("auth", "authhidden"):
        app = BearerOnly(app)
    if kind == "noorigin":
        return app
    if kind == "nocors":
        return CORSMiddleware(
            app, allow_origins=["*"], allow_methods=["GET", "POST"], allow_headers=["content-type"]
        )
    exposed = [] if kind in ("noexpose", "authhidden") else EXPOSED
    app = CORSMiddleware(
        app,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=OLD_HEADERS if kind == "oldcors" else MCP_HEADERS,
        expose_headers=exposed,
    )
    return BearerEverywhere(app) if kind == "options401" else app


def main() -> None:
    kind, port = sys.argv[1], int(sys.argv[2])
    uvicorn.run(build_app(kind, port), host="127.0.0.1", port=port, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()
