"""One chat: its message history and the running turn (request → stream → events).

This is the streaming run; everything a turn shows in the UI goes out through `emit` as plain dicts.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from agentlite.errors import ErrorType, ModelError, from_http
from agentlite.events import Event, StreamFailed, TextDelta
from agentlite.settings import Settings
from agentlite.stream.decoder import StreamDecoder
from agentlite.transport import ModelRequest, ModelResponse, ModelTransport

Emit = Callable[[dict[str, Any]], None]
_message_ids = itertools.count(1)


class Chat:
    def __init__(self, chat_id: str, emit: Emit) -> None:
        self.id = chat_id
        self.emit = emit
        self.messages: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self.task is not None and not self.task.done()

    def start_turn(self, text: str, settings: Settings, transport: ModelTransport) -> None:
        """Queue behind a running turn so messages are never interleaved."""
        previous = self.task

        async def run() -> None:
            if previous is not None and not previous.done():
                await asyncio.wait([previous])
            await self.turn(text, settings, transport)

        self.task = asyncio.ensure_future(run())

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()

    async def turn(self, text: str, settings: Settings, transport: ModelTransport) -> None:
        self.messages.append({"role": "user", "content": text})
        message_id = f"m{next(_message_ids)}"
        self.emit({"kind": "message_start", "id": message_id, "role": "assistant"})
        reply: list[str] = []
        state = "done"
        try:
            await self._stream(self._request(settings), transport, reply)
        except asyncio.CancelledError:
            state = "interrupted"
        except ModelError as error:
            state = "error"
            self.emit({"kind": "turn_error", **error.to_dict()})
        finally:
            if reply:
                self.messages.append({"role": "assistant", "content": "".join(reply)})
            self.emit({"kind": "message_end", "id": message_id, "state": state})
            self.emit({"kind": "turn_end"})

    def _request(self, settings: Settings) -> ModelRequest:
        body = {"model": settings.model, "messages": list(self.messages), "stream": True}
        url = f"{settings.base_url}/chat/completions" if settings.base_url else "demo:/chat/completions"
        return ModelRequest("POST", url, settings.headers(), body)

    async def _stream(self, request: ModelRequest, transport: ModelTransport, reply: list[str]) -> None:
        response = await transport.send(request)
        try:
            if response.status >= 400:
                raise from_http(
                    response.status, await _read_all(response), response.headers.get("retry-after")
                )
            decoder = StreamDecoder(dialect="native", tools=[])
            async for data in response.chunks():
                self._forward(decoder.feed(data), reply)
            self._forward(decoder.close(), reply)
        finally:
            await response.cancel()

    def _forward(self, events: list[Event], reply: list[str]) -> None:
        for event in events:
            if isinstance(event, StreamFailed):
                raise ModelError(ErrorType(event.error_type), event.message, event.status, event.code)
            if isinstance(event, TextDelta):
                reply.append(event.text)
            self.emit(event.to_dict())


async def _read_all(response: ModelResponse) -> bytes:
    parts = [part async for part in response.chunks()]
    return b"".join(parts)
