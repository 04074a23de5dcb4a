"""Characters outside the BMP whose UTF-16 halves arrive in two deltas (`\\ud83d` then `\\ude00`): the
reader sees the character, never a lone surrogate, in text, thinking, tool arguments and ndjson-text
chunks."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from agentlite.events import (
    Event,
    Finish,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
)
from agentlite.stream.sse_encode import sse_body
from agentlite.stream.surrogates import SurrogateJoiner, has_surrogates, mended

from .support import decode

SMILE = "\U0001f600"
HIGH, LOW = "\ud83d", "\ude00"


def ascii_sse(*payloads: dict[str, Any] | str) -> bytes:
    """An SSE body whose JSON escapes every non-ASCII character, as many providers send it."""
    return sse_body(*payloads, ascii_only=True)


def delta(**fields: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": fields}]}


def arguments(text: str, **head: Any) -> dict[str, Any]:
    function = {"arguments": text, **({"name": "write_file"} if head else {})}
    return delta(tool_calls=[{"index": 0, **head, "function": function}])


FINISH = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
CALLS = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}


def no_lone_halves(events: list[Event]) -> bool:
    return not any(has_surrogates(json.dumps(e.to_dict(), ensure_ascii=False)) for e in events)


def test_mended_and_joiner() -> None:
    assert mended(f"a{HIGH}{LOW}b{LOW}") == f"a{SMILE}b\ufffd"
    joiner = SurrogateJoiner()
    assert [joiner.feed(f"a{HIGH}"), joiner.feed(f"{LOW}b{HIGH}"), joiner.close()] == [
        "a",
        f"{SMILE}b",
        "\ufffd",
    ]


def test_content_halves_in_two_deltas() -> None:
    body = ascii_sse(delta(content=f"Hi {HIGH}"), delta(content=f"{LOW}!"), FINISH, "[DONE]")
    assert b"\\ud83d" in body
    assert decode(body) == [TextDelta("Hi "), TextDelta(f"{SMILE}!"), Finish("stop")]


def test_reasoning_halves_in_two_deltas() -> None:
    body = ascii_sse(
        delta(reasoning_content=f"hm {HIGH}"),
        delta(reasoning_content=LOW),
        delta(content="ok"),
        FINISH,
        "[DONE]",
    )
    assert decode(body) == [ThinkingDelta("hm "), ThinkingDelta(SMILE), TextDelta("ok"), Finish("stop")]


def test_a_half_that_never_meets_its_other_half_is_a_replacement_character() -> None:
    body = ascii_sse(delta(content=f"a{LOW}b"), delta(content=f"c{HIGH}"), FINISH, "[DONE]")
    assert decode(body) == [TextDelta("a\ufffdb"), TextDelta("c"), TextDelta("\ufffd"), Finish("stop")]


def test_tool_arguments_with_halves_escaped_in_the_chunk() -> None:
    body = ascii_sse(
        arguments('{"path": "/s.txt", "content": "x', id="c1"),
        arguments(HIGH),
        arguments(LOW + "y" * 70),
        arguments('"}'),
        CALLS,
        "[DONE]",
    )
    events = decode(body)
    content = "x" + SMILE + "y" * 70
    assert events == [
        ToolCallStarted("c1", "write_file"),
        ToolArgPreview("c1", "path", "/s.txt"),
        ToolArgPreview("c1", "content", "x"),
        ToolArgPreview("c1", "content", content),
        ToolCallReady("c1", "write_file", {"path": "/s.txt", "content": content}),
        Finish("tool_calls"),
    ]


def test_tool_arguments_with_halves_escaped_in_the_arguments_text() -> None:
    body = ascii_sse(
        arguments('{"path": "/s.txt", "content": "x\\ud83d', id="c1"),
        arguments('\\ude00"}'),
        CALLS,
        "[DONE]",
    )
    events = decode(body)
    assert events[-2:] == [
        ToolCallReady("c1", "write_file", {"path": "/s.txt", "content": "x" + SMILE}),
        Finish("tool_calls"),
    ]
    assert no_lone_halves(events)


def test_tool_arguments_with_a_lone_escaped_half_are_mended() -> None:
    body = ascii_sse(arguments('{"path": "/s.txt", "content": "a\\ud83db"}', id="c1"), CALLS, "[DONE]")
    events = decode(body)
    assert ToolCallReady("c1", "write_file", {"path": "/s.txt", "content": "a\ufffdb"}) in events
    assert no_lone_halves(events)


def ndjson_text(*chunks: str, digest: str | None = None) -> str:
    lines = [{"type": "tool", "id": "t", "tool": "create_file", "data": {"path": "/e", "content_b64": "s1"}}]
    lines.append({"type": "bs64_start", "bs64_id": "s1"})
    lines += [{"type": "bs64_chunk", "bs64_id": "s1", "seq": i, "data": c} for i, c in enumerate(chunks)]
    lines.append({"type": "bs64_end", "bs64_id": "s1", "hash": digest})
    return "".join(json.dumps(line) + "\n" for line in lines)  # ASCII: non-BMP text as escaped halves


def test_ndjson_text_chunk_ending_with_a_high_half() -> None:
    text = "go " + SMILE + " now"
    digest = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    reply = ndjson_text("go " + HIGH, LOW + " now", digest=digest)
    assert "\\ud83d" in reply
    body = ascii_sse(*(delta(content=reply[i : i + 9]) for i in range(0, len(reply), 9)), FINISH, "[DONE]")
    events = decode(body, "ndjson-text")
    assert [e for e in events if not isinstance(e, ToolArgPreview)] == [
        ToolCallStarted("t", "create_file"),
        ToolCallReady("t", "create_file", {"path": "/e", "content": text}),
        Finish("tool_calls"),
    ]
    assert [e.text for e in events if isinstance(e, ToolArgPreview)][-1] == text


def test_ndjson_text_stream_ending_with_a_high_half_fails_its_tool() -> None:
    body = ascii_sse(delta(content=ndjson_text("go " + HIGH)), FINISH, "[DONE]")
    events = decode(body, "ndjson-text")
    (invalid,) = [e for e in events if isinstance(e, ToolCallInvalid)]
    assert "half of a UTF-16 surrogate pair" in invalid.reason
    assert no_lone_halves(events)


def test_ndjson_text_lone_low_half_fails_its_tool() -> None:
    body = ascii_sse(delta(content=ndjson_text("a" + LOW)), FINISH, "[DONE]")
    events = decode(body, "ndjson-text")
    assert "lone UTF-16 surrogate" in next(e for e in events if isinstance(e, ToolCallInvalid)).reason
    assert not [e for e in events if isinstance(e, ToolCallReady)]


def test_prompt_dialect_calls_with_lone_escaped_halves_are_mended() -> None:
    call = '{"tool": "write_file", "arguments": {"path": "/j", "content": "a\\ud83db"}}\n'
    events = decode(ascii_sse(delta(content=call), FINISH, "[DONE]"), "json")
    assert ToolCallReady("call_1", "write_file", {"path": "/j", "content": "a\ufffdb"}) in events
    record = '{"type":"tool","id":"t","tool":"read_file","data":{"path":"/n\\udc00"}}\n'
    events = decode(ascii_sse(delta(content=record), FINISH, "[DONE]"), "ndjson")
    assert ToolCallReady("t", "read_file", {"path": "/n\ufffd"}) in events
    assert no_lone_halves(events)
