"""One model reply: send the request, stream the answer through the decoder, forward events to the UI.

What arrives is collected into a `Reply` (text, thinking, ready calls, invalid calls, finish reason,
usage). A failure before the first byte raises `ModelError` (nothing was shown, so a retry is a plain
resend); a failure in the middle of the stream is returned in `Reply.failure` with everything received
so far, so the engine can keep the partial answer and never replay it blindly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from agentlite.engine.chat_events import Emit
from agentlite.errors import ErrorType, ModelError, from_http
from agentlite.events import (
    Event,
    Finish,
    StreamFailed,
    TextDelta,
    ThinkingDelta,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
    Usage,
)
from agentlite.stream.decoder import StreamDecoder
from agentlite.transport import HttpResponse

OnReady = Callable[[ToolCallReady], None]
Send = Callable[[], Awaitable[HttpResponse]]  # sends the request (`Endpoint.chat(body)`), once


@dataclass
class Reply:
    text: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    started: dict[str, str] = field(default_factory=dict)  # call id -> name, as they began
    ready: list[ToolCallReady] = field(default_factory=list)
    invalid: list[ToolCallInvalid] = field(default_factory=list)
    finish: str | None = None
    usage: Usage | None = None
    failure: ModelError | None = None
    received: bool = False  # anything at all arrived (text, thinking or a call)
    recorded: bool = False  # its message is in the chat history (a reply is recorded once)

    @property
    def content(self) -> str:
        return "".join(self.text)

    @property
    def empty(self) -> bool:
        return not self.content.strip() and not self.ready and not self.invalid


async def read_all(response: HttpResponse) -> bytes:
    parts = [part async for part in response.chunks()]
    return b"".join(parts)


async def stream_reply(
    send: Send,
    decoder: StreamDecoder,
    emit: Emit,
    on_ready: OnReady | None = None,
    reply: Reply | None = None,
    on_open: Callable[[], None] | None = None,
) -> Reply:
    """Stream one reply into `reply`; `on_open` hears that the status was good, `on_ready` each call the
    moment it is complete."""
    reply = reply if reply is not None else Reply()
    response: HttpResponse | None = None
    try:
        response = await send()  # cancelled here, the transport drops the request
        if response.status >= 400:
            body = await read_all(response)
            raise from_http(response.status, body, response.headers.get("retry-after"))
        if on_open is not None:
            on_open()
        try:
            async for data in response.chunks():
                _take(decoder.feed(data), reply, emit, on_ready)
                if reply.failure is not None:
                    return reply
            _take(decoder.close(), reply, emit, on_ready)
        except ModelError as error:  # the connection broke mid-stream
            if not reply.received:
                raise
            reply.failure = error
    finally:
        if response is not None:
            await response.cancel()
    return reply


def _take(events: list[Event], reply: Reply, emit: Emit, on_ready: OnReady | None) -> None:
    for event in events:
        if isinstance(event, StreamFailed):
            reply.failure = ModelError(ErrorType(event.error_type), event.message, event.status, event.code)
            return
        if isinstance(event, TextDelta):
            reply.text.append(event.text)
        elif isinstance(event, ThinkingDelta):
            reply.thinking.append(event.text)
        elif isinstance(event, ToolCallStarted):
            reply.started[event.id] = event.name
        elif isinstance(event, ToolCallInvalid):
            reply.invalid.append(event)
        elif isinstance(event, Usage):
            reply.usage = event
        elif isinstance(event, Finish):
            reply.finish = event.reason
        reply.received = reply.received or isinstance(
            event, TextDelta | ThinkingDelta | ToolCallStarted | ToolCallReady | ToolCallInvalid
        )
        emit(event)
        if isinstance(event, ToolCallReady):
            reply.ready.append(event)
            if on_ready is not None:
                on_ready(event)


async def drain_text(send: Send) -> str:
    """The text of a reply without tools (a summary request): the streaming run, drained."""
    reply = await stream_reply(send, StreamDecoder("native", []), lambda _event: None)
    if reply.failure is not None:
        raise reply.failure
    return reply.content
