"""Provider quirks measured on real servers (docs/protocol.md): the legacy `function_call` beside
`tool_calls`, an empty `200` stream, a stream with nothing decodable, a lone choice numbered other than 0."""

from __future__ import annotations

from agentlite.errors import ErrorType
from agentlite.events import Finish, StreamFailed, TextDelta, ToolCallInvalid, ToolCallReady
from agentlite.stream.decoder import EMPTY_BODY, UNDECODABLE

from .support import decode, of, split, sse, transcript


def test_function_call_beside_tool_calls_is_read_once() -> None:
    events = decode(transcript("llamacpp_python_function_call.sse"))
    assert of(events, ToolCallInvalid) == []
    ready = of(events, ToolCallReady)
    assert [(e.name, e.arguments) for e in ready] == [
        ("write_file", {"path": "/hello.txt", "content": "hi there"})
    ]
    assert events[-1] == Finish("tool_calls")


def test_function_call_beside_tool_calls_split_anywhere() -> None:
    body = transcript("llamacpp_python_function_call.sse")
    for cut in range(0, len(body), 37):
        events = decode(body, pieces=split(body, [cut, cut + 11]))
        assert [e.arguments for e in of(events, ToolCallReady)] == [
            {"path": "/hello.txt", "content": "hi there"}
        ]


def test_function_call_alone_is_one_call() -> None:
    body = sse(
        {"choices": [{"index": 0, "delta": {"function_call": {"name": "read_file", "arguments": '{"pa'}}}]},
        {"choices": [{"index": 0, "delta": {"function_call": {"arguments": 'th": "/a"}'}}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "function_call"}]},
        "[DONE]",
    )
    events = decode(body)
    assert [(e.name, e.arguments) for e in of(events, ToolCallReady)] == [("read_file", {"path": "/a"})]
    assert events[-1] == Finish("tool_calls")


def test_empty_body_is_an_empty_reply_not_a_network_failure() -> None:
    for body in (b"", b"\r\n\r\n", b": keep-alive\n\n"):
        events = decode(body)
        assert len(events) == 1 and isinstance(events[0], StreamFailed)
        assert events[0].error_type == ErrorType.EMPTY_RESULT.value
        assert events[0].code == EMPTY_BODY


def test_only_undecodable_events_fail_as_protocol_even_after_done() -> None:
    for body in (b"data: {unparsable}\n\ndata: [DONE]\n\n", b"data: {unparsable}\n\n"):
        failures = of(decode(body), StreamFailed)
        assert [(f.error_type, f.message) for f in failures] == [(ErrorType.PROTOCOL.value, UNDECODABLE)]
        assert not of(decode(body), Finish)


def test_one_bad_event_among_good_ones_is_only_noted() -> None:
    body = b"data: {unparsable}\n\n" + sse(
        {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}, "[DONE]"
    )
    events = decode(body)
    assert of(events, TextDelta) == [TextDelta("ok")] and events[-1] == Finish("stop")


def test_lone_choice_with_index_one_is_read() -> None:
    body = sse(
        {"choices": [{"index": 1, "delta": {"content": "Hel"}}]},
        {"choices": [{"index": 1, "delta": {"content": "lo"}, "finish_reason": "stop"}]},
        "[DONE]",
    )
    events = decode(body)
    assert "".join(e.text for e in of(events, TextDelta)) == "Hello"
    assert events[-1] == Finish("stop")


def test_several_choices_read_choice_zero_only() -> None:
    body = sse(
        {"choices": [{"index": 1, "delta": {"content": "B"}}, {"index": 0, "delta": {"content": "A"}}]},
        {"choices": [{"index": 0, "delta": {"content": "a"}}]},
        {"choices": [{"index": 1, "delta": {"content": "b"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        "[DONE]",
    )
    assert "".join(e.text for e in of(decode(body), TextDelta)) == "Aa"
