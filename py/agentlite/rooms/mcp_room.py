"""The remote MCP servers' room (`mcp.*`, docs/mcp.md): the servers and their sign-ins, loaded on
first use, so a workspace without servers never loads their package. Every change is also posted as
an `mcp` message (agentlite.mcp.servers)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentlite.engine import Engine
from agentlite.engine.chats import SERVERS_KEY
from agentlite.engine.chats import STORE as APP_STORE
from agentlite.transport import HttpTransport
from agentlite.workspace.storage import StorageBackend

if TYPE_CHECKING:  # loaded only when the workspace has a remote server
    from agentlite.mcp.servers import McpServers
    from agentlite.mcp.sign_ins import ServerSignIns

Post = Callable[[dict[str, Any]], None]


class McpRoom:
    def __init__(
        self,
        engine: Engine,
        storage: StorageBackend | None,
        post: Post,
        ready: asyncio.Event,
        transport: Callable[[], HttpTransport] | None = None,
    ) -> None:
        self.engine = engine
        self.storage = storage
        self.post = post
        self.ready = ready  # set once the tool modules can load; until then no remote tool joins
        self.transport = transport  # the servers' HTTP (None: the standard library's)
        self._servers: McpServers | None = None
        self._sign_ins: ServerSignIns | None = None

    async def has_servers(self) -> bool:
        """Whether the workspace keeps remote servers, read without loading their package."""
        return self.storage is not None and bool(await self.storage.get(APP_STORE, SERVERS_KEY))

    async def servers(self) -> McpServers:
        """Loaded on first use: their tools join the engine's registry and what the user allowed joins
        every chat's approvals."""
        if self._servers is None:
            from agentlite.mcp.server_book import ServerBook
            from agentlite.mcp.servers import McpServers

            transport = self.transport
            if transport is None:
                from agentlite.mcp.urllib_transport import UrllibTransport

                transport = UrllibTransport
            book = await ServerBook.load(self.storage)
            if self._servers is None:
                self._servers = McpServers(book, self.engine.registry, transport, self.post, ready=self.ready)
                self.engine.allowed_remote, self.engine.fit_remote = self._servers.allowed, self._servers.fit
                self.engine.reread_remote = self._servers.reread  # a round reads what changed first
        return self._servers

    async def sign_ins(self) -> ServerSignIns:
        """OAuth sign-in to the servers (agentlite.mcp.sign_ins), made on first use."""
        servers = await self.servers()
        if self._sign_ins is None:
            from agentlite.mcp.sign_ins import ServerSignIns

            self._sign_ins = ServerSignIns(servers, servers.transport)
        return self._sign_ins

    async def start(self, tokens: dict[str, str] | None) -> list[dict[str, Any]]:
        """Connect the servers in the background with the page's tokens; without servers, load nothing."""
        if not await self.has_servers():
            return []
        return (await self.servers()).start(tokens)

    async def views(self) -> list[dict[str, Any]]:
        return (await self.servers()).views()

    async def add(self, url: str, token: str | None) -> dict[str, Any]:
        return await (await self.servers()).add(url, token)

    async def remove(self, url: str) -> None:
        await (await self.servers()).remove(url)

    async def toggle(self, url: str, tool: str, enabled: bool) -> dict[str, Any]:
        return await (await self.servers()).toggle(url, tool, bool(enabled))

    async def allow(self, url: str, tool: str | None) -> dict[str, Any]:
        return await (await self.servers()).allow(url, tool)

    async def token(self, url: str, token: str | None) -> dict[str, Any]:
        return await (await self.servers()).token(url, token)

    async def connect(self, url: str, token: str | None) -> dict[str, Any]:
        """The user's Connect on a held server (one that came in a hand-off file): no longer held, it
        connects, with the page's token for it if any."""
        return await (await self.servers()).token(url, token)

    async def begin_sign_in(
        self, url: str, redirect_uri: str, metadata_document_url: str | None
    ) -> dict[str, str]:
        return await (await self.sign_ins()).begin(url, redirect_uri, metadata_document_url)

    async def finish_sign_in(self, state: str, code: str, iss: str | None) -> dict[str, Any]:
        return await (await self.sign_ins()).finish(state, code, iss)
