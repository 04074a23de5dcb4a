"""The model transport seam: `send(request) -> response` with a streamed body and cancel.

`FetchTransport` (agentlite.browser) talks to a real endpoint through the browser's fetch;
`ScriptedTransport` here serves scripted responses — the tests' fake and the offline demo model's engine,
like httpx's `MockTransport`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class ModelRequest:
    """One HTTP request to the model endpoint. `headers` may hold the key: never log it."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None


class ModelResponse(Protocol):
    status: int
    headers: dict[str, str]

    def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives; raises ModelError(network/timeout) when the connection fails."""
        ...

    async def cancel(self) -> None:
        """Stop reading and release the connection; idempotent."""
        ...


class ModelTransport(Protocol):
    async def send(self, request: ModelRequest) -> ModelResponse: ...


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


Responder = Callable[[ModelRequest], "ScriptedResponse | Awaitable[ScriptedResponse]"]


class ScriptedTransport:
    """Answers each request with `responder(request)`; records every request it was sent."""

    def __init__(self, responder: Responder) -> None:
        self._responder = responder
        self.requests: list[ModelRequest] = []

    async def send(self, request: ModelRequest) -> ScriptedResponse:
        self.requests.append(request)
        result = self._responder(request)
        if isinstance(result, ScriptedResponse):
            return result
        return await result

    @classmethod
    def of(cls, *responses: ScriptedResponse) -> ScriptedTransport:
        """Serve the given responses in order, one per request."""
        queue = list(responses)

        def next_response(_request: ModelRequest) -> ScriptedResponse:
            if not queue:
                raise AssertionError("ScriptedTransport: more requests than scripted responses")
            return queue.pop(0)

        return cls(next_response)
