"""`McpServers`: the workspace's remote MCP servers, live: connected in the background, their enabled
tools in the engine's registry, their state told to the page.

Each server of the book (mcp.server_book) gets an `McpClient`; connecting, listing and listening run as
background tasks, so nothing waits for a server (the app is ready without them). A server's state is one
of `held` (it came in a hand-off file: nothing is sent to it until the user connects it), `connecting`,
`connected`, `needs-auth` (401/403), `unreachable` (no connection, or no answer in time: the message says
what failed) and `error`; the page's connection doctor may refine `unreachable` into
`cors-blocked`, which the worker cannot tell apart. Every change of a server's state or tools is posted
as `{type: "mcp", server: view}` (`view()`).

The tool list is read when the server connects and again only when the server says it changed
(`notifications/tools/list_changed`, on its listening stream or inside a call's answer): never after a
call on the chance that it changed, so a call is one exchange. A change is read as soon as it is heard,
and a turn asks (`reread`) before each round takes its tools (engine.turn_tools), so a change announced
before the round begins is offered in it; one heard later is offered at the round after. Only enabled
tools are registered.
Readings are paced (mcp.pace: a burst, then one per few seconds), so a server that floods the
notification or changes its list after every call cannot keep the worker rebuilding its tools. The
tools offered are bounded (mcp.listing): each server within its share of the chat's context window,
the rest left out with a note the model and the Servers panel both show. They are fitted again as a
request's tool list is built (`fit`) when its window or the installed tokenizer differs from the ones
they were fitted to, so the first request after the tokenizer came is counted in its tokens.
A call that finds the server gone or refusing its token changes the server's state too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.engine.tokens import installed
from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.listing import DEFAULT_BUDGET, server_budget
from agentlite.mcp.pace import Pace
from agentlite.mcp.remote_tool import listed_names, offered_tools
from agentlite.mcp.seam import HttpTransport
from agentlite.mcp.server_book import ServerBook, ServerEntry
from agentlite.protocol import Msg
from agentlite.tools.registry import ToolRegistry

log = logging.getLogger(__name__)
Post = Callable[[dict[str, Any]], None]
Spawn = Callable[[Awaitable[None]], None]
NEEDS_TOKEN = "this server needs sign-in: sign in, or paste a token"
REFUSED_TOKEN = "the server refused the token: paste another one"
HELD = "opened from a hand-off file: not connected until you connect it"
TIMEOUT = 30.0  # seconds for one request
REREAD_WAIT = 5.0  # seconds a round waits for the lists announced changed (then goes on, they are read on)
LISTEN_RETRY = 2.0  # seconds before a listening stream that ended is opened again
STATES = {
    FailureKind.AUTH: "needs-auth",
    FailureKind.NETWORK: "unreachable",
    FailureKind.TIMEOUT: "unreachable",
}


class Link:
    """One server's connection: its client, state, listing and the tools it put in the registry."""

    def __init__(self, entry: ServerEntry, token: str | None, pace: Pace) -> None:
        self.entry = entry
        self.pace = pace  # how often the tool list may be read again
        self.token = token
        self.client: McpClient | None = None
        self.state = "connecting"
        self.diagnosis = ""
        self.challenge: str | None = None  # the last 401/403's WWW-Authenticate: where sign-in starts
        self.listed: list[dict[str, Any]] = []
        self.registered: list[str] = []
        self.names: list[str] = []  # every tool of the listing, by its registry name
        self.left_out = 0  # enabled tools the listing budget left out
        self.budget = DEFAULT_BUDGET  # the budget the registered tools were fitted to
        self.tasks: set[asyncio.Task[Any]] = set()
        self.listing = asyncio.Lock()
        self.stopped = asyncio.Event()  # ends the notification stream, which then closes its request

    def stop(self) -> None:
        self.stopped.set()
        for task in self.tasks:
            if task is not self.listener:
                task.cancel()
        self.tasks.clear()

    listener: asyncio.Task[Any] | None = None


class McpServers:
    def __init__(
        self,
        book: ServerBook,
        registry: ToolRegistry,
        transport: Callable[[], HttpTransport],
        post: Post,
        ready: asyncio.Event | None = None,
        pace: Callable[[], Pace] = Pace,
    ) -> None:
        self.book = book
        self.pace = pace
        self.counted_by = installed()  # the tokenizer the registered tools were fitted with
        self.window: int | None = None  # the context window they were fitted to (None: no request yet)
        if ready is None:
            ready = asyncio.Event()
            ready.set()
        self.ready = ready  # set once the registry can be built (its tool modules need pydantic)
        self.registry = registry
        self.transport = transport
        self.post = post
        self.links: dict[str, Link] = {}
        self.on_refused: Callable[[str], None] = lambda url: None  # a token refused (sign-in may refresh)

    def link(self, url: str) -> Link:
        """The live connection of a server of the book (McpFailure when there is none)."""
        link = self.links.get(str(url).strip())
        if link is None:
            raise McpFailure(FailureKind.PROTOCOL, f"no server {url!r} in this workspace")
        return link

    def start(self, tokens: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """Connect every server of the book not connected yet (with the page's tokens), in the background."""
        for entry in self.book.entries.values():
            if entry.url not in self.links:
                self._connect(entry, (tokens or {}).get(entry.url) or None)
        return self.views()

    def views(self) -> list[dict[str, Any]]:
        return [self.view(link) for link in self.links.values()]

    async def add(self, url: str, token: str | None = None) -> dict[str, Any]:
        entry = self.book.add(url)
        await self.book.save()
        link = self._connect(entry, token or None)
        self._refit()
        return self.view(link)

    async def remove(self, url: str) -> None:
        entry = self.book.remove(url)
        await self.book.save()
        link = self.links.pop(entry.url, None)
        if link is not None:
            self._drop(link)
        self._refit()

    async def toggle(self, url: str, tool: str, enabled: bool) -> dict[str, Any]:
        entry = self.book.get(url)
        (entry.disabled.discard if enabled else entry.disabled.add)(str(tool))
        await self.book.save()
        return self._changed(self.links[entry.url])

    async def allow(self, url: str, tool: str | None = None) -> dict[str, Any]:
        """ "Always allow": one tool (its model-facing name) or, without `tool`, the whole server."""
        entry = self.book.get(url)
        if tool is None:
            entry.allow_server = True
        else:
            entry.allowed.add(str(tool))
        await self.book.save()
        return self._changed(self.links[entry.url])

    async def token(self, url: str, token: str | None) -> dict[str, Any]:
        """A new token (None: none) for a server: it connects again with it (a held one too: the user
        acted on it)."""
        entry = self.book.get(url)
        if entry.held:
            entry.held = False
            await self.book.save()
        old = self.links.pop(entry.url, None)
        if old is not None:
            self._drop(old)
        return self.view(self._connect(entry, token or None))

    def allowed(self) -> set[str]:
        """What the user allowed (asked each round; the tools are fitted again first if the tokenizer
        changed)."""
        self.fit(self.window)
        return self.book.allowed()

    def fit(self, window: int | None) -> None:
        """Fit the tools to the request about to be built: its chat's context `window`, counted by the
        tokenizer installed now. Nothing to do (and cheap) when neither changed since the last time."""
        counted_anew = installed() is not self.counted_by
        if counted_anew or window != self.window:
            self.window = window
            self._refit(everyone=counted_anew)

    def view(self, link: Link) -> dict[str, Any]:
        entry = link.entry
        tools = [
            {"name": name, "enabled": entry.enabled(name), "allowed": name in entry.allowed}
            for name in link.names
        ]
        return {
            "url": entry.url,
            "name": entry.slug,
            "title": entry.name,
            "state": link.state,
            "diagnosis": link.diagnosis,
            "allow_server": entry.allow_server,
            "tools": tools,
            "note": _note(link.left_out),
        }

    # --- the connection ---------------------------------------------------------------------------------

    def _connect(self, entry: ServerEntry, token: str | None) -> Link:
        link = self.links[entry.url] = Link(entry, token, self.pace())
        if entry.held:
            link.state, link.diagnosis = "held", HELD
            self._emit(link)
            return link
        self._spawn(link, self._open(link))
        self._emit(link)
        return link

    def _spawn(self, link: Link, work: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        link.tasks.add(task)
        task.add_done_callback(link.tasks.discard)
        return task

    async def _open(self, link: Link) -> None:
        client = link.client = McpClient(link.entry.url, self.transport(), token=link.token, timeout=TIMEOUT)
        try:
            await client.connect()
            self.book.name(link.entry, client.server_name)
            await self.book.save()
            await self.ready.wait()
            await self._relist(link, force=True)
        except McpFailure as failure:
            self._failed(link, failure)
            return
        except Exception as error:  # a bug: the server must not stay `connecting`; the page says what broke
            log.exception("connecting to %s failed", link.entry.url)
            self._failed(link, McpFailure(FailureKind.PROTOCOL, f"{type(error).__name__}: {error}"))
            return
        link.listener = self._spawn(link, self._listen(link, client))
        self._spawn(link, self._watch(link, client))

    async def reread(self) -> None:
        """Before a round takes its tools: read every list a connected server said changed, when its pace
        allows a reading now, and wait for a reading already under way; at most REREAD_WAIT (a slow
        server's reading goes on behind the round; a server in trouble is left to `_watch`)."""
        due = [link for link in self.links.values() if link.state == "connected" and _due(link)]
        if due:
            await asyncio.wait([self._spawn(link, self._reread(link)) for link in due], timeout=REREAD_WAIT)

    async def _reread(self, link: Link) -> bool:
        """Read an announced change; False when the server failed (its state says how)."""
        try:
            await self._relist(link)
        except McpFailure as failure:
            self._failed(link, failure)
            return False
        return True

    async def _relist(self, link: Link, force: bool = False) -> None:
        """Read the tool list again (when forced, or when the server said it changed), and show it; a
        reading its pace does not allow yet is left to `_watch`, which waits for its turn."""
        client = link.client
        async with link.listing:
            if client is None or not (force or client.tools_changed.is_set()):
                return
            if not link.pace.take():
                client.tools_changed.set()
                return
            listed = await client.list_tools()
            link.names = [name for name, _ in listed_names(link.entry.slug, listed)]
            if listed == link.listed and link.state == "connected":
                return  # announced, yet found as it was: nothing to register or show
            link.listed = listed
            link.state, link.diagnosis = "connected", ""
            self._changed(link)

    async def _watch(self, link: Link, client: McpClient) -> None:
        while True:
            await client.tools_changed.wait()
            await asyncio.sleep(link.pace.wait())
            if not await self._reread(link):
                await asyncio.sleep(LISTEN_RETRY)

    async def _listen(self, link: Link, client: McpClient) -> None:
        """Hold the server's notification stream open; a stream that ends or idles out is opened again,
        a server gone or refusing the token changes the state, a server without one is left alone."""
        while not link.stopped.is_set():
            try:
                await client.listen(link.stopped)
            except McpFailure as failure:
                if failure.kind in (FailureKind.NETWORK, FailureKind.AUTH):
                    self._failed(link, failure)
                    return
                if failure.kind is not FailureKind.TIMEOUT:  # the server holds no stream: ask on calls
                    log.info("no notification stream from %s: %s", link.entry.url, failure)
                    return
            await asyncio.sleep(LISTEN_RETRY)

    def _failed(self, link: Link, failure: McpFailure) -> None:
        link.state = STATES.get(failure.kind, "error")
        if link.state == "needs-auth":
            link.challenge = failure.challenge
            link.diagnosis = REFUSED_TOKEN if link.token else NEEDS_TOKEN
            if link.token:
                self.on_refused(link.entry.url)
        else:
            link.diagnosis = str(failure)
        self._emit(link)

    def _drop(self, link: Link) -> None:
        link.stop()
        for name in link.registered:
            self.registry.remove(name)
        link.registered = []
        client = link.client
        if client is not None:
            task = asyncio.ensure_future(client.close())
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    # --- the registry -------------------------------------------------------------------------------------

    def _budget(self) -> int:
        """One server's share of the window the tools are fitted to (mcp.listing.server_budget)."""
        return server_budget(self.window, len(self.links))

    def _refit(self, everyone: bool = False) -> None:
        """Fit every server's tools again when the share changed (a server was added or removed, another
        window), or `everyone` (the tokenizer changed)."""
        budget = self._budget()
        self.counted_by = installed()
        for link in list(self.links.values()):
            if link.listed and (everyone or link.budget != budget):
                self._changed(link)

    def _changed(self, link: Link) -> dict[str, Any]:
        """Register the server's enabled tools, within its share of the budget, in place of the ones it
        had; tell the page."""
        if not self.ready.is_set():
            return self._emit(link)
        for name in link.registered:
            self.registry.remove(name)
        entry, link.budget = link.entry, self._budget()
        enabled = [item for name, item in listed_names(entry.slug, link.listed) if entry.enabled(name)]
        offered = offered_tools(_Caller(self, link), entry.slug, enabled, listing_budget=link.budget)
        link.registered, link.left_out = [], offered.left_out if entry.slug else 0
        for tool in offered.tools if entry.slug else []:
            if self.registry.get(tool.name) is None:
                self.registry.register(tool)
                link.registered.append(tool.name)
        return self._emit(link)

    def _emit(self, link: Link) -> dict[str, Any]:
        view = self.view(link)
        if self.links.get(link.entry.url) is link:
            self.post({"type": Msg.MCP.value, "server": view})
        return view

    async def _called(self, link: Link, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        client = link.client
        if client is None:
            raise McpFailure(FailureKind.NETWORK, "the server is not connected")
        try:
            result = await client.call_tool(name, arguments)
        except McpFailure as failure:
            if failure.kind in STATES:
                self._failed(link, failure)
            raise
        if link.state != "connected":  # it answers again: read its list, which says it is connected
            with contextlib.suppress(McpFailure):
                await self._relist(link, force=True)
        return result


def _note(left_out: int) -> str:
    """What the Servers panel says of the tools the listing budget left out ("" for none)."""
    if not left_out:
        return ""
    return (
        f"{left_out} more tools of this server are not offered to the model: its tool list is past its"
        " share of the context window (turn some tools off to make room for others)"
    )


def _due(link: Link) -> bool:
    """Whether a round must wait for the server's list: a reading is under way, or a change was announced
    and the pace allows reading it now."""
    client = link.client
    announced = client is not None and client.tools_changed.is_set() and not link.pace.wait()
    return announced or link.listing.locked()


class _Caller:
    """A server's tools call through here, so a call that fails tells the server's state. A round offers
    the tools it took as it began (engine.turn_tools): a call goes to the server's connection of now (a
    new token made a new one), and fails when the server was removed since."""

    def __init__(self, servers: McpServers, link: Link) -> None:
        self.servers = servers
        self.url = link.entry.url

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        link = self.servers.links.get(self.url)
        if link is None:
            raise McpFailure(FailureKind.NETWORK, "the server was removed from this workspace")
        return await self.servers._called(link, name, arguments)
