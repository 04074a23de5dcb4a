"""`McpClient`: one connection to a remote MCP server over streamable HTTP, in either revision in use.

`connect()` negotiates rather than guesses, as the official SDKs do: it first asks `server/discover` at
the stateless revision (2026-07-28: every request carries its protocol version, client capabilities and
client info in `params._meta`, and the `Mcp-Method` / `Mcp-Name` headers); a server that answers with
a revision both sides speak is used that way. Any other answer but a refused token, an unreachable
server or a modern-only server with no common revision (JSON-RPC -32022 naming only newer revisions)
falls back to the session handshake (`initialize`, `Mcp-Session-Id`, `notifications/initialized`).

A stateless result may be `input_required`: the client answers the embedded input requests through
`answer_input` (none can be answered yet: the call fails, `input`) or, with only `requestState`, asks
again after a short pause, at most `MAX_ROUNDS` times. A session the server forgot (404) is opened
anew once. Everything is bounded by `timeout` per request. Nothing a server sends changes how the
client is configured: its notifications only set `tools_changed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.mcp import message
from agentlite.mcp.failure import UNSUPPORTED_VERSION, FailureKind, McpFailure
from agentlite.mcp.headers import header_value
from agentlite.mcp.revisions import (
    CLIENT_INFO,
    HANDSHAKE_VERSIONS,
    META_CAPABILITIES,
    META_CLIENT,
    META_SERVER,
    META_VERSION,
    METHOD_HEADER,
    MODERN_VERSIONS,
    NAME_HEADER,
    SESSION_HEADER,
    VERSION_HEADER,
)
from agentlite.mcp.seam import HttpTransport
from agentlite.mcp.wire import MAX_BYTES, Wire

NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}  # mirrored in Mcp-Name
MAX_ROUNDS = 10
MAX_PAGES = 50
MAX_TOOLS = 500

AnswerInput = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


async def refuse_input(_key: str, request: dict[str, Any]) -> dict[str, Any]:
    method = request.get("method", "input")
    raise McpFailure(FailureKind.INPUT, f"the server asked for {method}, which this client cannot answer")


class McpClient:
    def __init__(
        self,
        url: str,
        transport: HttpTransport,
        *,
        token: str | None = None,
        timeout: float = 60.0,
        max_bytes: int = MAX_BYTES,
        answer_input: AnswerInput = refuse_input,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.wire = Wire(
            url, transport, token=token, incoming=self._incoming, max_bytes=max_bytes, sleep=sleep
        )
        self.timeout = timeout
        self.answer_input = answer_input
        self.sleep = sleep
        self.revision: str | None = None
        self.session_id: str | None = None
        self.server_info: dict[str, Any] = {}
        self.capabilities: dict[str, Any] = {}
        self.instructions: str | None = None
        self.tools_changed = asyncio.Event()
        self._ids = itertools.count(1)

    @property
    def token(self) -> str | None:
        return self.wire.token

    @token.setter
    def token(self, value: str | None) -> None:
        """A new bearer token (after sign-in or refresh); the next request carries it."""
        self.wire.token = value

    @property
    def modern(self) -> bool:
        return self.revision in MODERN_VERSIONS

    @property
    def server_name(self) -> str:
        name = self.server_info.get("name")
        return name if isinstance(name, str) else ""

    async def connect(self) -> None:
        """Negotiate the revision (see the module's docstring)."""
        version = MODERN_VERSIONS[-1]
        for attempt in range(2):
            try:
                result = await self._bounded(self._post_modern("server/discover", {}, version))
            except McpFailure as failure:
                if failure.kind is FailureKind.NETWORK:
                    await self._handshake_after(failure)
                    return
                retry = self._after_refused_discover(failure, attempt)
                if retry is None:
                    await self._bounded(self._initialize())
                    return
                version = retry
                continue
            offered = result.get("supportedVersions")
            mutual = [v for v in MODERN_VERSIONS if isinstance(offered, list) and v in offered]
            if not mutual:
                await self._bounded(self._initialize())
                return
            self._adopt(version if version in mutual else mutual[-1], result)
            return

    async def _handshake_after(self, unanswered: McpFailure) -> None:
        """A `server/discover` that got no answer may be a preflight refused for the newer revision's
        headers (`Mcp-Method`, `Mcp-Name`, which few servers' CORS lists name yet), and a browser tells
        that only as a network error: the handshake needs neither, so it is tried. When it too gets no
        answer, the server is unreachable and the first failure is the one told."""
        try:
            await self._bounded(self._initialize())
        except McpFailure as second:
            if second.kind is FailureKind.NETWORK:
                raise unanswered from second
            raise

    def _after_refused_discover(self, failure: McpFailure, attempt: int) -> str | None:
        """The modern revision to ask again at, None to fall back to the handshake; or raise."""
        if failure.kind in (
            FailureKind.AUTH,
            FailureKind.NETWORK,
            FailureKind.TIMEOUT,
            FailureKind.TOO_LARGE,
        ):
            raise failure
        if failure.code != UNSUPPORTED_VERSION:
            return None
        supported = failure.data.get("supported") if isinstance(failure.data, dict) else None
        if not isinstance(supported, list):
            return None
        mutual = [v for v in MODERN_VERSIONS if v in supported]
        if mutual and attempt == 0:
            return mutual[-1]
        if not any(v in HANDSHAKE_VERSIONS for v in supported):
            raise McpFailure(
                FailureKind.PROTOCOL, f"no common protocol revision (the server speaks {supported})"
            )
        return None

    def _adopt(self, version: str, result: dict[str, Any]) -> None:
        self.revision = version
        capabilities = result.get("capabilities")
        self.capabilities = capabilities if isinstance(capabilities, dict) else {}
        meta = result.get("_meta")
        info = meta.get(META_SERVER) if isinstance(meta, dict) else None
        self.server_info = info if isinstance(info, dict) else {}
        instructions = result.get("instructions")
        self.instructions = instructions if isinstance(instructions, str) else None

    async def _initialize(self) -> None:
        self.revision, self.session_id = None, None
        params = {"protocolVersion": HANDSHAKE_VERSIONS[-1], "capabilities": {}, "clientInfo": CLIENT_INFO}
        body = message.request(next(self._ids), "initialize", params)
        answer = await self.wire.post(body, {}, resumable=False)
        result = message.result_of(answer.message or {})
        version = result.get("protocolVersion")
        if version not in HANDSHAKE_VERSIONS:
            raise McpFailure(
                FailureKind.PROTOCOL, f"the server offers protocol revision {version!r}, unknown here"
            )
        self.session_id = answer.headers.get(SESSION_HEADER.lower()) or None
        info = result.get("serverInfo")
        self.server_info = info if isinstance(info, dict) else {}
        capabilities = result.get("capabilities")
        self.capabilities = capabilities if isinstance(capabilities, dict) else {}
        instructions = result.get("instructions")
        self.instructions = instructions if isinstance(instructions, str) else None
        self.revision = str(version)
        await self.wire.post(
            message.notification("notifications/initialized"), self._session(), resumable=False
        )

    def _session(self) -> dict[str, str]:
        headers = {VERSION_HEADER: self.revision} if self.revision else {}
        if self.session_id:
            headers[SESSION_HEADER] = self.session_id
        return headers

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request, its result (McpFailure otherwise), within `timeout`."""
        if self.revision is None:
            await self.connect()
        result: dict[str, Any] = await self._bounded(self._request(method, params or {}))
        return result

    async def _bounded(self, work: Awaitable[dict[str, Any]] | Awaitable[None]) -> Any:
        try:
            return await asyncio.wait_for(work, self.timeout)
        except TimeoutError as exc:
            raise McpFailure(FailureKind.TIMEOUT, f"no answer within {self.timeout:g} s") from exc

    async def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if self.modern:
            assert self.revision is not None
            return await self._modern_rounds(method, params, self.revision)
        try:
            return await self._post_session(method, params)
        except McpFailure as failure:
            if failure.status != 404 or not self.session_id:
                raise
        await self._initialize()  # the server forgot the session: open a new one, once
        return await self._post_session(method, params)

    async def _post_session(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        ident = next(self._ids)
        try:
            answer = await self.wire.post(
                message.request(ident, method, params), self._session(), resumable=True
            )
        except asyncio.CancelledError:
            await self._cancelled(ident)
            raise
        return message.result_of(answer.message or {})

    async def _cancelled(self, ident: int) -> None:
        """Tell the server a request timed out or was stopped (best effort, never blocks long)."""
        note = message.notification("notifications/cancelled", {"requestId": ident, "reason": "cancelled"})
        with contextlib.suppress(McpFailure, TimeoutError):
            await asyncio.wait_for(self.wire.post(note, self._session(), resumable=False), 2.0)

    async def _modern_rounds(self, method: str, params: dict[str, Any], version: str) -> dict[str, Any]:
        result = await self._post_modern(method, params, version)
        delay = 0.05
        for _ in range(MAX_ROUNDS):
            if result.get("resultType") != "input_required":
                return result
            requests = result.get("inputRequests")
            retry = dict(params)
            if isinstance(requests, dict) and requests:
                retry["inputResponses"] = {
                    key: await self.answer_input(key, req) for key, req in requests.items()
                }
            else:
                await self.sleep(delay)
                delay = min(delay * 2, 0.25)
            if "requestState" in result:
                retry["requestState"] = result["requestState"]
            result = await self._post_modern(method, retry, version)
        raise McpFailure(FailureKind.PROTOCOL, f"the server asked for input more than {MAX_ROUNDS} times")

    async def _post_modern(self, method: str, params: dict[str, Any], version: str) -> dict[str, Any]:
        meta = params.get("_meta")
        envelope = {
            **(meta if isinstance(meta, dict) else {}),
            META_VERSION: version,
            META_CAPABILITIES: {},
            META_CLIENT: CLIENT_INFO,
        }
        headers = {VERSION_HEADER: version, METHOD_HEADER: method}
        named = params.get(NAMED.get(method, ""))
        if isinstance(named, str):
            headers[NAME_HEADER] = header_value(named)
        body = message.request(next(self._ids), method, {**params, "_meta": envelope})
        answer = await self.wire.post(body, headers, resumable=False)
        return message.result_of(answer.message or {})

    async def _incoming(self, item: dict[str, Any]) -> dict[str, Any] | None:
        """A server's notification or request. A request gets an answer: `ping` an empty result,
        anything else (sampling, elicitation, roots) "method not found": this client offers none."""
        method = item.get("method")
        if "id" not in item:
            if method == "notifications/tools/list_changed":
                self.tools_changed.set()
            return None
        if method == "ping":
            return message.reply(item["id"], {})
        return message.error_reply(item["id"], -32601, f"{str(method)[:80]} is not supported by this client")

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every tool the server lists, page by page (bounded: a cursor that loops ends the listing).
        `tools_changed` is cleared as the reading begins: a change announced while it runs is read again
        after it, and one whose reading failed is still due."""
        self.tools_changed.clear()
        try:
            return await self._list_pages()
        except BaseException:
            self.tools_changed.set()
            raise

    async def _list_pages(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            result = await self.request("tools/list", {"cursor": cursor} if cursor else {})
            page = result.get("tools")
            if not isinstance(page, list):
                raise McpFailure(FailureKind.PROTOCOL, "the server's tool list is not a list")
            tools.extend(item for item in page if isinstance(item, dict))
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str) or cursor in seen or len(tools) >= MAX_TOOLS:
                break
            seen.add(cursor)
        return tools[:MAX_TOOLS]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return await self.request("tools/call", {"name": name, "arguments": arguments})

    async def listen(self, stop: asyncio.Event) -> None:
        """Hold a stream of the server's notifications open until `stop` (a changed tool list sets
        `tools_changed`): the session's GET stream, or a stateless `subscriptions/listen` request that
        opts in to tool list changes only."""
        if not self.modern:
            await self.wire.listen(self._session(), stop)
            return
        assert self.revision is not None
        params = {"notifications": {"toolsListChanged": True}}
        listening = asyncio.ensure_future(self._post_modern("subscriptions/listen", params, self.revision))
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait([listening, stopped], return_when=asyncio.FIRST_COMPLETED)
        for task in (listening, stopped):
            task.cancel()
        if listening.done() and not listening.cancelled() and listening.exception() is not None:
            raise listening.exception()  # type: ignore[misc]

    async def close(self) -> None:
        """End the session (DELETE), when there is one; the server may not care."""
        if self.session_id:
            with contextlib.suppress(McpFailure, TimeoutError):
                await asyncio.wait_for(self.wire.delete(self._session()), 5.0)
        self.session_id = None
        self.revision = None
