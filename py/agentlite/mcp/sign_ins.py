"""`ServerSignIns`: OAuth sign-in to the workspace's remote servers, from the Servers panel.

The round (docs/mcp.md, "Sign-in"): a server answered 401/403 (`needs-auth`, its challenge kept on the
link) → `begin()` discovers where to sign in and returns the authorization URL → the page opens it in a
popup → `finish()` trades the code for tokens, and the server connects again with the access token,
which goes back to the page to keep like a pasted token. The tokens stay in the worker's memory, so a
server that refuses an expired access token is refreshed silently before it asks for sign-in; tokens
refused again within a minute of their refresh are not refreshed again (no loop): the user signs in.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.oauth import PENDING_LIMIT, SignIn, Tokens, require_issuer_answers
from agentlite.mcp.oauth_metadata import AuthPlan, discover
from agentlite.mcp.seam import HttpTransport
from agentlite.mcp.servers import McpServers

REFRESH_GAP = 60.0  # seconds: tokens refreshed this recently and refused again are not refreshed again


class ServerSignIns:
    def __init__(
        self,
        servers: McpServers,
        transport: Callable[[], HttpTransport],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.servers = servers
        self.transport = transport
        self.flow = SignIn(transport())
        self.client_ids: dict[str, str] = {}  # authorization server -> the client id it knows us by
        self.begun: dict[str, str] = {}  # state -> server URL
        self.tokens: dict[str, Tokens] = {}  # server URL -> its tokens (memory only)
        self.refreshed: dict[str, float] = {}  # server URL -> when its tokens were last refreshed
        self.clock = clock
        servers.on_refused = self._refused

    async def begin(
        self, url: str, redirect_uri: str, metadata_document_url: str | None = None
    ) -> dict[str, str]:
        """Where the user signs in to the server at `url`: `{authorization_url, state}`."""
        link = self.servers.link(url)
        plan = await discover(self.transport(), link.entry.url, link.challenge)
        require_issuer_answers(plan)  # named before the popup opens, and before any registration
        client_id = await self._client_id(plan, redirect_uri, metadata_document_url)
        authorization_url, state = self.flow.start(plan, client_id, redirect_uri)
        while len(self.begun) >= PENDING_LIMIT:  # as many as SignIn keeps
            self.begun.pop(next(iter(self.begun)))
        self.begun[state] = link.entry.url
        return {"authorization_url": authorization_url, "state": state}

    async def finish(self, state: str, code: str, iss: str | None) -> dict[str, Any]:
        """The popup's answer: tokens for the server, which connects again with them. The access token
        goes back to the page (kept like a pasted one); the refresh token stays here."""
        url = self.begun.pop(state, None)
        if url is None:
            raise McpFailure(FailureKind.AUTH, "this sign-in is unknown or over: sign in again")
        tokens = await self.flow.finish(state, code, iss)
        self.tokens[url] = tokens
        self.refreshed.pop(url, None)
        view = await self.servers.token(url, tokens.access_token)
        return {"server": view, "token": tokens.access_token}

    async def _client_id(self, plan: AuthPlan, redirect_uri: str, document: str | None) -> str:
        key = plan.issuer or plan.authorization_endpoint
        known = self.client_ids.get(key)
        if known is None:
            known = await self.flow.client_id(plan, redirect_uri=redirect_uri, metadata_document_url=document)
            self.client_ids[key] = known
        return known

    def _refused(self, url: str) -> None:
        """The server refused its token: refresh it in the background, unless it was refreshed just now
        (then the user signs in again)."""
        tokens = self.tokens.pop(url, None)
        last = self.refreshed.get(url)
        if tokens is None or not tokens.refresh_token:
            return
        if last is not None and self.clock() - last < REFRESH_GAP:
            return
        self.refreshed[url] = self.clock()
        task = asyncio.ensure_future(self._refresh(url, tokens))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _refresh(self, url: str, tokens: Tokens) -> None:
        try:
            fresh = await self.flow.refresh(tokens)
        except McpFailure:
            return  # the server stays `needs-auth`: the user signs in again
        self.tokens[url] = fresh
        await self.servers.token(url, fresh.access_token)
