"""The wire: one JSON-RPC message posted over streamable HTTP, and the answer read back.

An answer is `202` (a notification was accepted), one JSON body, or a server-sent-events stream that
may carry the server's notifications and requests before the response (agentlite.stream.sse decodes
it). A stream that ends or drops before the response is resumed when the server gave its events ids:
a GET with `Last-Event-ID` after the `retry` time it asked for, a bounded number of times. Every answer
is read under a byte limit (a server that floods is cut off: `too_large`). HTTP statuses become typed
failures (`McpFailure`): 401/403 `auth`, a JSON-RPC error body `rpc`, other errors `http`.
"""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agentlite.errors import ErrorType, ModelError
from agentlite.mcp import message
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.message import Shape
from agentlite.mcp.revisions import RESUME_HEADER
from agentlite.mcp.seam import HttpRequest, HttpResponse, HttpTransport
from agentlite.stream.sse import SseDecoder

MAX_BYTES = 8 * 1024 * 1024  # one answer; a tool's text is cut far below this (mcp.answer)
RESUMES = 5  # reconnections of one stream in a row without a new event
DEFAULT_RETRY_MS = 1000
MAX_RETRY_MS = 10_000
ACCEPT = "application/json, text/event-stream"

# What the wire does with a server's notification or request: the reply to post back, or None.
Incoming = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]


async def _ignore(_message: dict[str, Any]) -> dict[str, Any] | None:
    return None


@dataclass
class Answer:
    """What came back: the response message (None for a `202`) and the response headers."""

    message: dict[str, Any] | None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Stream:
    """The state of one answer across its reconnections; `headers` go with replies to the server's
    requests (the session's)."""

    headers: dict[str, str] = field(default_factory=dict)
    decoder: SseDecoder = field(default_factory=SseDecoder)
    received: int = 0


class Wire:
    def __init__(
        self,
        url: str,
        transport: HttpTransport,
        *,
        token: str | None = None,
        incoming: Incoming = _ignore,
        max_bytes: int = MAX_BYTES,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.url = url
        self.transport = transport
        self.token = token
        self.incoming = incoming
        self.max_bytes = max_bytes
        self.sleep = sleep

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return {**headers, **(extra or {})}

    async def post(self, body: dict[str, Any], headers: dict[str, str], *, resumable: bool) -> Answer:
        """Post one message; for a request, wait for its response (matched by id)."""
        response = await self._send(HttpRequest("POST", self.url, self.headers(headers), body))
        want = body.get("id") if "method" in body and "id" in body else None
        if response.status == 202 or (want is None and 200 <= response.status < 300):
            await response.cancel()
            return Answer(None, response.headers)
        if response.status >= 400:
            raise await self._error(response)
        stream = _Stream(headers)
        found = await self._read(response, want, stream)
        attempts = 0
        while found is None and resumable and stream.decoder.last_event_id is not None and attempts < RESUMES:
            seen = stream.received
            await self.sleep(min(stream.decoder.retry or DEFAULT_RETRY_MS, MAX_RETRY_MS) / 1000)
            found = await self._resume(stream, headers, want)
            attempts = 0 if stream.received > seen else attempts + 1
        if found is None:
            raise McpFailure(FailureKind.NETWORK, "the server closed the stream before it answered")
        return Answer(found, response.headers)

    async def listen(self, headers: dict[str, str], stop: asyncio.Event) -> None:
        """Hold the server's GET stream open until `stop`, handing every message to `incoming`."""
        get_headers = {k: v for k, v in self.headers(headers).items() if k != "Content-Type"}
        response = await self._send(HttpRequest("GET", self.url, get_headers))
        if response.status >= 400:
            await response.cancel()
            raise McpFailure(
                FailureKind.HTTP, "the server offers no stream of its own", status=response.status
            )
        reader = asyncio.ensure_future(self._read(response, None, _Stream(headers)))
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait([reader, stopper], return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        await response.cancel()
        if reader.done() and not reader.cancelled() and reader.exception() is not None:
            raise reader.exception()  # type: ignore[misc]
        reader.cancel()

    async def delete(self, headers: dict[str, str]) -> None:
        response = await self._send(HttpRequest("DELETE", self.url, self.headers(headers)))
        await response.cancel()

    async def _resume(self, stream: _Stream, headers: dict[str, str], want: Any) -> dict[str, Any] | None:
        get_headers = {k: v for k, v in self.headers(headers).items() if k != "Content-Type"}
        get_headers[RESUME_HEADER] = stream.decoder.last_event_id or ""
        try:
            response = await self._send(HttpRequest("GET", self.url, get_headers))
        except McpFailure as failure:
            if failure.kind is FailureKind.NETWORK:
                return None  # the server is still away: the next attempt may find it
            raise
        if response.status >= 400:
            raise await self._error(response)
        return await self._read(response, want, stream)

    async def _send(self, request: HttpRequest) -> HttpResponse:
        try:
            return await self.transport.send(request)
        except ModelError as error:
            raise _transport_failure(error) from error

    async def _read(self, response: HttpResponse, want: Any, stream: _Stream) -> dict[str, Any] | None:
        """Read one answer: the response to `want` (None for a GET stream: read to the end)."""
        is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
        text = codecs.getincrementaldecoder("utf-8")("replace")
        body: list[str] = []
        try:
            async for chunk in response.chunks():
                stream.received += len(chunk)
                if stream.received > self.max_bytes:
                    raise McpFailure(FailureKind.TOO_LARGE, f"the answer passed {self.max_bytes:,} bytes")
                if not is_sse:
                    body.append(text.decode(chunk))
                    continue
                for event in stream.decoder.feed(text.decode(chunk)):
                    found = await self._event(event.data, want, stream)
                    if found is not None:
                        return found
        except ModelError as error:
            if not is_sse:
                raise _transport_failure(error) from error
            return None  # dropped mid-stream: resumable when the events had ids
        finally:
            await response.cancel()
        if is_sse:
            return None
        return await self._json(body, want, stream)

    async def _json(self, body: list[str], want: Any, stream: _Stream) -> dict[str, Any] | None:
        found = None
        for item in message.decode("".join(body)):
            if message.shape(item) is Shape.RESPONSE and item.get("id") == want:
                found = item
            else:
                await self._handle(item, stream)
        if found is None and want is not None:
            raise McpFailure(FailureKind.PROTOCOL, "the server's answer holds no response to the request")
        return found

    async def _event(self, data: str | None, want: Any, stream: _Stream) -> dict[str, Any] | None:
        if not data or not data.strip():
            return None  # a priming event (an id to resume from, no message)
        for item in message.decode(data):
            if message.shape(item) is Shape.RESPONSE:
                if want is not None and item.get("id") == want:
                    return item
                continue  # a response to nothing of ours
            await self._handle(item, stream)
        return None

    async def _handle(self, item: dict[str, Any], stream: _Stream) -> None:
        answer = await self.incoming(item)
        if answer is not None:
            await self.post(answer, stream.headers, resumable=False)

    async def _error(self, response: HttpResponse) -> McpFailure:
        chunks = []
        size = 0
        try:
            async for chunk in response.chunks():
                chunks.append(chunk)
                size += len(chunk)
                if size > 65536:
                    break
        except ModelError:
            pass
        finally:
            await response.cancel()
        return status_failure(response.status, b"".join(chunks).decode("utf-8", "replace"), response.headers)


def status_failure(status: int, text: str, headers: dict[str, str]) -> McpFailure:
    """The failure an HTTP error status stands for, with the JSON-RPC error of its body when there is one."""
    if status in (401, 403):
        challenge = headers.get("www-authenticate", "")
        hint = f" ({challenge[:200]})" if challenge else ""
        return McpFailure(
            FailureKind.AUTH,
            f"the server refused the token{hint}",
            status=status,
            challenge=challenge or None,
        )
    try:
        items = message.decode(text)
    except McpFailure:
        items = []
    for item in items:
        if isinstance(item.get("error"), dict):
            failure = message.rpc_failure(item["error"])
            failure.status = status
            return failure
    return McpFailure(FailureKind.HTTP, f"the server answered HTTP {status}", status=status)


def _transport_failure(error: ModelError) -> McpFailure:
    if error.type is ErrorType.PROTOCOL:  # a refused answer (a redirect): reached, not unreachable
        return McpFailure(FailureKind.HTTP, error.message, status=error.status)
    kind = FailureKind.TIMEOUT if error.type is ErrorType.TIMEOUT else FailureKind.NETWORK
    return McpFailure(kind, error.message)
