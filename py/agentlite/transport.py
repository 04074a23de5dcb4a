"""The HTTP seam: `send(request) -> response` with a streamed body and cancel. Its two users are the model
endpoint's requests and the remote MCP servers' (agentlite.mcp.seam).

`FetchTransport` (agentlite.browser) talks to a real endpoint through the browser's fetch;
`ScriptedTransport` here serves scripted responses — the tests' fake and the offline demo model's engine,
like httpx's `MockTransport`. `KeyMask` takes the API key out of a body as it streams, so that no error
built from what a server echoed can show it.

No transport follows a redirect (`refuse_redirect`): a request and its body (the chat, a tool's arguments,
an OAuth code) go only to the URL they were made for, never on to wherever a server points them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentlite.errors import MIN_SECRET, REDACTED, ErrorType, ModelError, redact

MAX_LOCATION = 200  # characters of a redirect's target named in its error


@dataclass
class HttpRequest:
    """One HTTP request (to the model endpoint or an MCP server). `headers` may hold a key: never log it."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | str | None = None  # JSON, or a text sent as it is (an OAuth form)

    @property
    def api_key(self) -> str | None:
        """The bearer token of the Authorization header, if any."""
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            return None
        return token.strip() or None


@dataclass
class RedirectRefused(ModelError):
    """A server answered a request with a redirect, which was not followed. `location` is its whole target
    when the transport could read it (a browser's fetch hides it: ""); the message names it cut short."""

    location: str = ""


def refuse_redirect(request: HttpRequest, where: str, status: int, location: str = "") -> RedirectRefused:
    """The error for a redirect answer from `where` (the server's origin): a protocol error (never
    retried) naming where it pointed, cut and with the key masked, since the target is the server's words."""
    target = redact(location, request.api_key)
    told = f"a redirect to {target[:MAX_LOCATION]}" if target else "a redirect"
    return RedirectRefused(
        ErrorType.PROTOCOL,
        f"{where} answered with {told}; not followed (nothing is sent on to another address): "
        "give the final URL of the endpoint",
        status if is_redirect(status) else None,
        location=target,
    )


def is_redirect(status: int) -> bool:
    """Any 3xx: a redirect, or an answer no request of this client asks for (a 304, a 300)."""
    return 300 <= status < 400


class KeyMask:
    """Body bytes in, the same bytes with the API key replaced by `REDACTED` out, across any split.

    The end of a chunk that could be the start of the key is held back until the next chunk decides it;
    an SSE chunk ends with a blank line, so in practice nothing waits."""

    def __init__(self, key: str | None) -> None:
        self._key = key.encode("utf-8") if key and len(key) >= MIN_SECRET else b""
        self._held = b""

    def feed(self, chunk: bytes) -> bytes:
        if not self._key:
            return chunk
        data = (self._held + chunk).replace(self._key, REDACTED.encode())
        cut = len(data) - _key_start(data, self._key)
        self._held = data[cut:]
        return data[:cut]

    def close(self) -> bytes:
        """What was held back: the body ended, so it was not the key."""
        held, self._held = self._held, b""
        return held


def _key_start(data: bytes, key: bytes) -> int:
    """The length of the longest end of `data` that is a proper beginning of `key`."""
    start = max(0, len(data) - len(key) + 1)
    while (start := data.find(key[:1], start)) != -1:
        if key.startswith(data[start:]):
            return len(data) - start
        start += 1
    return 0


class HttpResponse(Protocol):
    status: int
    headers: dict[str, str]

    def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives; raises ModelError(network/timeout) when the connection fails."""
        ...

    async def cancel(self) -> None:
        """Stop reading and release the connection; idempotent."""
        ...


class HttpTransport(Protocol):
    async def send(self, request: HttpRequest) -> HttpResponse: ...


@dataclass
class ScriptedResponse:
    """A response built from a list of body chunks, optionally paced by `delay` seconds per chunk.

    `fail_after` raises the given exception after that many chunks (a dropped connection).
    """

    status: int = 200
    body: Sequence[bytes] = ()
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    fail_after: int | None = None
    failure: BaseException | None = None
    cancelled: bool = False

    async def chunks(self) -> AsyncIterator[bytes]:
        for index, chunk in enumerate(self.body):
            if self.cancelled:
                return
            if self.fail_after is not None and index >= self.fail_after and self.failure is not None:
                raise self.failure
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.cancelled:
                return
            yield chunk
        if self.fail_after is not None and self.fail_after >= len(self.body) and self.failure is not None:
            raise self.failure

    async def cancel(self) -> None:
        self.cancelled = True


Responder = Callable[[HttpRequest], "ScriptedResponse | Awaitable[ScriptedResponse]"]


class ScriptedTransport:
    """Answers each request with `responder(request)`; records every request it was sent."""

    def __init__(self, responder: Responder) -> None:
        self._responder = responder
        self.requests: list[HttpRequest] = []

    async def send(self, request: HttpRequest) -> ScriptedResponse:
        self.requests.append(request)
        result = self._responder(request)
        if isinstance(result, ScriptedResponse):
            return result
        return await result

    @classmethod
    def of(cls, *responses: ScriptedResponse) -> ScriptedTransport:
        """Serve the given responses in order, one per request."""
        queue = list(responses)

        def next_response(_request: HttpRequest) -> ScriptedResponse:
            if not queue:
                raise AssertionError("ScriptedTransport: more requests than scripted responses")
            return queue.pop(0)

        return cls(next_response)
