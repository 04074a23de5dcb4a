"""A chat turn over the scripted transport: streaming, errors, stop."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlite.chat import Chat
from agentlite.demo import text_reply
from agentlite.errors import ErrorType, ModelError
from agentlite.settings import Settings
from agentlite.transport import ScriptedResponse, ScriptedTransport

SETTINGS = Settings(base_url="http://model.test/v1", api_key="sk-secret", model="m")


def run_turn(*responses: ScriptedResponse, text: str = "hi") -> tuple[list[dict[str, Any]], Chat]:
    events: list[dict[str, Any]] = []
    chat = Chat("c1", events.append)
    asyncio.run(chat.turn(text, SETTINGS, ScriptedTransport.of(*responses)))
    return events, chat


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def test_reply_streams_as_text_events_and_is_kept_in_history() -> None:
    events, chat = run_turn(ScriptedResponse(body=text_reply("Hello there, friend.")))
    assert kinds(events)[0] == "message_start"
    assert kinds(events)[-2:] == ["message_end", "turn_end"]
    assert "".join(e["text"] for e in events if e["kind"] == "text") == "Hello there, friend."
    assert events[-2]["state"] == "done"
    assert chat.messages == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Hello there, friend."},
    ]


def test_request_carries_model_stream_and_key_header() -> None:
    transport = ScriptedTransport.of(ScriptedResponse(body=text_reply("ok")))
    asyncio.run(Chat("c1", lambda e: None).turn("hi", SETTINGS, transport))
    request = transport.requests[0]
    assert request.url == "http://model.test/v1/chat/completions"
    assert request.body is not None and request.body["stream"] is True
    assert request.body["model"] == "m"
    assert request.headers["Authorization"] == "Bearer sk-secret"


def test_http_error_becomes_a_typed_turn_error_without_the_key() -> None:
    body = [b'{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit"}}']
    events, _chat = run_turn(ScriptedResponse(status=429, body=body, headers={"retry-after": "7"}))
    error = next(e for e in events if e["kind"] == "turn_error")
    assert error["error_type"] == "rate_limit"
    assert error["retry_after"] == 7.0
    assert error["message"] == "Rate limit reached"
    assert events[-2] == {"kind": "message_end", "id": events[0]["id"], "state": "error"}
    assert "sk-secret" not in repr(events)


def test_dropped_connection_keeps_partial_text_and_marks_error() -> None:
    drop = ModelError(ErrorType.NETWORK, "the connection dropped mid-stream")
    body = text_reply("one two three four five")
    events, chat = run_turn(ScriptedResponse(body=body, fail_after=3, failure=drop))
    assert [e["error_type"] for e in events if e["kind"] == "turn_error"] == ["network"]
    partial = "".join(e["text"] for e in events if e["kind"] == "text")
    assert partial and "five" not in partial
    assert chat.messages[-1] == {"role": "assistant", "content": partial}


def test_stop_interrupts_and_keeps_partial_text() -> None:
    events: list[dict[str, Any]] = []
    chat = Chat("c1", events.append)
    slow = ScriptedResponse(body=text_reply("a b c d e f g h i j"), delay=0.01)

    async def scenario() -> None:
        chat.start_turn("hi", SETTINGS, ScriptedTransport.of(slow))
        while not any(e["kind"] == "text" and e["text"].strip() for e in events):
            await asyncio.sleep(0.005)
        chat.stop()
        assert chat.task is not None
        await asyncio.wait([chat.task])

    asyncio.run(scenario())
    end = next(e for e in events if e["kind"] == "message_end")
    assert end["state"] == "interrupted"
    assert slow.cancelled
    assert kinds(events)[-1] == "turn_end"


def test_turns_of_one_chat_run_one_after_another() -> None:
    events: list[dict[str, Any]] = []
    chat = Chat("c1", events.append)
    transport = ScriptedTransport.of(
        ScriptedResponse(body=text_reply("first"), delay=0.005),
        ScriptedResponse(body=text_reply("second"), delay=0.005),
    )

    async def scenario() -> None:
        chat.start_turn("one", SETTINGS, transport)
        chat.start_turn("two", SETTINGS, transport)
        assert chat.task is not None
        await asyncio.wait([chat.task])

    asyncio.run(scenario())
    starts = [i for i, e in enumerate(events) if e["kind"] == "message_start"]
    ends = [i for i, e in enumerate(events) if e["kind"] == "turn_end"]
    assert len(starts) == 2 and ends[0] < starts[1]
    assert [m["content"] for m in chat.messages] == ["one", "first", "two", "second"]
