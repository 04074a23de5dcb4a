"""Streams captured from a real server (llama-cpp-python 0.3.36 serving SmolLM2-135M-Instruct, chat format
`chatml-function-calling`), replayed byte for byte (docs/protocol.md)."""

from __future__ import annotations

import json
from pathlib import Path

from agentlite.engine.shrink import Overflow, stated_overflow
from agentlite.errors import ErrorType
from agentlite.events import Finish, StreamFailed, TextDelta, ToolCallInvalid, ToolCallReady
from agentlite.stream.decoder import EMPTY_BODY

from .support import decode, of, split

CAPTURES = Path(__file__).parent / "captures"


def capture(name: str) -> bytes:
    return (CAPTURES / f"{name}.sse").read_bytes()


def test_forced_tool_call_with_legacy_function_call_beside_it_runs_once() -> None:
    events = decode(capture("native_forced_tool"))
    assert of(events, ToolCallInvalid) == []
    ready = of(events, ToolCallReady)
    assert [(e.name, e.arguments["path"]) for e in ready] == [("create_file", "/notes/hello.txt")]
    assert events[-1] == Finish("tool_calls")


def test_forced_tool_call_capture_is_split_invariant() -> None:
    body = capture("native_forced_tool")
    whole = decode(body)
    for step in (3, 64, 1000):
        assert decode(body, pieces=split(body, range(step, len(body), step))) == whole


def test_tools_with_auto_choice_answer_pings_then_nothing_an_empty_reply() -> None:
    events = decode(capture("auto_tools_stream"))
    assert [(e.error_type, e.code) for e in of(events, StreamFailed)] == [
        (ErrorType.EMPTY_RESULT.value, EMPTY_BODY)
    ]


def test_plain_answers_stream_as_text() -> None:
    for name in ("plain_answer", "assistant_content_empty"):
        events = decode(capture(name))
        assert "".join(e.text for e in of(events, TextDelta)).strip()
        assert isinstance(events[-1], Finish)


def test_the_window_is_read_from_the_servers_refusal() -> None:
    message = json.loads(capture("context_length_error"))["error"]["message"]
    assert stated_overflow(message) == Overflow(1024, 3110)
