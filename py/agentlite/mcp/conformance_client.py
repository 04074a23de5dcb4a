"""The client as the official MCP conformance suite drives it: `python -m agentlite.mcp.conformance_client
URL` (the suite appends the URL and names the scenario in `MCP_CONFORMANCE_SCENARIO`).

It does what the agent does with a server: connect (negotiating the revision), list the tools, call each
with arguments made from its schema, close. Exit code 0 when every step worked (tests/unit/mcp/
test_conformance.py runs the suite's client scenarios against it).

A 401 or 403 starts a sign-in (agentlite.mcp.oauth), as the page does, at most `MAX_SIGN_INS` times in
a row; the page's popup is played by `follow_authorization`: the authorization URL is fetched and the
code read from the redirect (the suite's authorization servers approve at once).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.oauth import SignIn, Tokens
from agentlite.mcp.oauth_metadata import discover
from agentlite.mcp.seam import HttpRequest, HttpTransport
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.transport import RedirectRefused

T = TypeVar("T")
MAX_SIGN_INS = 3
METADATA_DOCUMENT = "https://conformance-test.local/client-metadata.json"  # the suite's expected CIMD URL
REDIRECT_URI = "http://localhost:3000/callback"

SAMPLES: dict[str, Any] = {"number": 5, "integer": 3, "string": "conformance", "boolean": True}


def sample_arguments(schema: Any) -> dict[str, Any]:
    """One value of the right type for every required property (and for the rest when typed)."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    arguments = {}
    for name, spec in properties.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if isinstance(kind, str) and kind in SAMPLES:
            arguments[name] = SAMPLES[kind]
    return arguments


async def follow_authorization(
    transport: HttpTransport, authorization_url: str
) -> tuple[str, str, str | None]:
    """What the page's popup does, for an authorization server that approves at once: the code, state
    and RFC 9207 `iss` (None when it sends none) of the redirect it answers."""
    try:
        response = await transport.send(HttpRequest("GET", authorization_url))
    except RedirectRefused as redirect:  # the answer that carries the code: read, never followed
        status, location = redirect.status, redirect.location
    else:
        await response.cancel()
        status, location = response.status, response.headers.get("location", "")
    query = parse_qs(urlsplit(location).query)
    if status not in (301, 302, 303, 307, 308) or "code" not in query:
        error = query.get("error", [f"HTTP {status}"])[0]
        raise McpFailure(FailureKind.AUTH, f"the authorization server did not give a code ({error})")
    return query["code"][0], query.get("state", [""])[0], query.get("iss", [None])[0]


class Authorizer:
    """Signs the client in when the server asks, at most `MAX_SIGN_INS` times in a row."""

    def __init__(self, client: McpClient, url: str, transport: HttpTransport) -> None:
        self.client, self.url, self.transport = client, url, transport
        self.sign_in = SignIn(transport)
        self.tokens: Tokens | None = None
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
        self.pre_registered = context.get("client_id") if isinstance(context, dict) else None

    async def run(self, step: Callable[[], Awaitable[T]]) -> T:
        for _ in range(MAX_SIGN_INS):
            try:
                return await step()
            except McpFailure as failure:
                if failure.kind is not FailureKind.AUTH or failure.status not in (401, 403):
                    raise
                await self.authorize(failure.challenge)
        return await step()

    async def authorize(self, challenge: str | None) -> None:
        held = self.tokens.scope if self.tokens else None
        plan = await discover(self.transport, self.url, challenge, held_scope=held)
        client_id = await self.sign_in.client_id(
            plan,
            redirect_uri=REDIRECT_URI,
            metadata_document_url=METADATA_DOCUMENT,
            pre_registered=self.pre_registered if isinstance(self.pre_registered, str) else None,
        )
        authorization_url, _ = self.sign_in.start(plan, client_id, REDIRECT_URI)
        code, state, iss = await follow_authorization(self.transport, authorization_url)
        # The suite's authorization servers send no `iss`. No page stands between here: the code is in
        # the redirect the plan's own authorization endpoint answered, so the plan's issuer sent it.
        self.tokens = await self.sign_in.finish(state, code, iss or plan.issuer)
        self.client.token = self.tokens.access_token


async def exercise(url: str) -> list[str]:
    """Connect, list, call every tool, close (signing in when asked); what happened, one line each."""
    transport = UrllibTransport(timeout=20)
    client = McpClient(url, transport, timeout=25)
    authorizer = Authorizer(client, url, transport)
    await authorizer.run(client.connect)
    said = [f"connected: {client.revision} {client.server_name}"]
    for tool in await authorizer.run(client.list_tools):
        arguments = sample_arguments(tool.get("inputSchema"))
        result = await authorizer.run(functools.partial(client.call_tool, tool["name"], arguments))
        said.append(f"called {tool['name']}: error={result.get('isError') is True}")
    await client.close()
    return said


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m agentlite.mcp.conformance_client URL", file=sys.stderr)
        return 2
    try:
        for line in asyncio.run(exercise(argv[-1])):
            print(line)
    except McpFailure as failure:
        print(f"failed: {failure.kind.value}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
