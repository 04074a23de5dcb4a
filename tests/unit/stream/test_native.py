"""Native dialect: literal provider transcripts decoded event by event (docs/protocol.md, native)."""

from __future__ import annotations

from agentlite.events import (
    Finish,
    ProtocolNote,
    StreamFailed,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
    Usage,
)
from agentlite.stream.decoder import TRUNCATED, StreamDecoder
from agentlite.stream.preview import ArgumentPreview

from .support import TOOLS, decode, normalized, of, sse, transcript


def test_openai_text_with_usage_after_finish() -> None:
    events = decode(transcript("openai_text.sse"))
    assert events == [
        TextDelta("Hello"),
        TextDelta(", wörld ✓"),
        Usage(9, 4, 13),
        Finish("stop"),
    ]


def test_azure_empty_choices_crlf_and_choice_without_delta() -> None:
    assert decode(transcript("azure_text.sse")) == [TextDelta("Hi"), Finish("stop")]


def test_deepseek_reasoning_content_is_thinking() -> None:
    assert decode(transcript("deepseek_reasoning.sse")) == [
        ThinkingDelta("The user wants "),
        ThinkingDelta("a greeting."),
        TextDelta("Hi!"),
        Usage(12, 20, 32),
        Finish("stop"),
    ]


def test_ollama_reasoning_field_is_thinking() -> None:
    assert decode(transcript("ollama_reasoning.sse")) == [
        ThinkingDelta("Okay, "),
        ThinkingDelta("simple."),
        TextDelta("Hello"),
        Finish("stop"),
    ]


def test_inline_think_tags_split_across_chunks() -> None:
    events = decode(transcript("inline_think.sse"))
    assert normalized(events)[:-1] == [
        ThinkingDelta("Plan: greet.\n"),
        TextDelta("Hello <think> is a tag."),
        Finish("stop"),
    ]


def test_groq_usage_under_x_groq() -> None:
    assert decode(transcript("groq_usage.sse")) == [TextDelta("Yes."), Usage(5, 2, 7), Finish("stop")]


def test_mistral_thinking_parts() -> None:
    assert decode(transcript("mistral_thinking_parts.sse")) == [
        ThinkingDelta("Short answer."),
        TextDelta("42"),
        Usage(3, 5, 8),
        Finish("stop"),
    ]


def test_refusal_is_text_and_content_filter_is_the_finish() -> None:
    assert decode(transcript("refusal.sse")) == [
        TextDelta("I can't help with that."),
        Finish("content_filter"),
    ]


def test_llamacpp_error_field_line() -> None:
    events = decode(transcript("llamacpp_error_field.sse"))
    assert events == [
        TextDelta("Par"),
        StreamFailed("context_length", "the request exceeds the available context size", 500, "500"),
    ]


def test_in_stream_error_object_stops_decoding() -> None:
    events = decode(transcript("openai_error_object.sse"))
    assert events == [
        TextDelta("Partial"),
        StreamFailed("rate_limit", "Rate limit reached for requests", None, "rate_limit_exceeded"),
    ]


def test_openrouter_midstream_error_with_finish_reason_error() -> None:
    events = decode(transcript("openrouter_midstream_error.sse"))
    assert events == [TextDelta("Hel"), StreamFailed("server", "Provider returned error", 502, "502")]


def test_finish_reason_error_without_an_error_object() -> None:
    assert decode(transcript("finish_reason_error.sse")) == [
        TextDelta("Hal"),
        StreamFailed("server", 'the model stopped with finish_reason "error"'),
    ]


def test_sse_error_event_stops_decoding() -> None:
    assert decode(transcript("event_error.sse")) == [
        TextDelta("Let me"),
        StreamFailed("server", "Overloaded"),
    ]


def test_sse_error_event_with_plain_text_data() -> None:
    body = (
        sse({"choices": [{"index": 0, "delta": {"content": "a"}}]})
        + b"event: error\ndata: upstream timed out\n\n"
    )
    assert decode(body) == [TextDelta("a"), StreamFailed("timeout", "upstream timed out")]


def test_usage_inside_the_choice() -> None:
    assert decode(transcript("usage_in_choice.sse")) == [TextDelta("Sure."), Usage(7, 2, 9), Finish("stop")]


def test_truncated_body_fails_as_network() -> None:
    decoder = StreamDecoder(tools=TOOLS)
    events = decoder.feed(transcript("truncated.sse")) + decoder.close()
    assert events == [TextDelta("Once upon"), StreamFailed("network", TRUNCATED)]
    assert decoder.truncated


def test_complete_body_is_not_truncated() -> None:
    decoder = StreamDecoder()
    decoder.feed(transcript("openai_text.sse"))
    decoder.close()
    assert not decoder.truncated


def test_unterminated_last_event_is_not_dispatched_and_the_reply_is_dropped() -> None:
    body = sse(
        {"choices": [{"index": 0, "delta": {"content": "Part"}}]},
        {"choices": [{"index": 0, "delta": {"content": "ial"}, "finish_reason": "stop"}]},
    )[:-1]
    decoder = StreamDecoder()
    events = decoder.feed(body) + decoder.close()
    assert events == [TextDelta("Part"), StreamFailed("network", TRUNCATED)]  # no "ial", no finish
    assert decoder.truncated  # the last event had no blank line


def test_unterminated_last_event_after_the_finish_reason_ends_normally() -> None:
    body = sse({"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]})
    body += b'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1}}\n'
    decoder = StreamDecoder()
    events = decoder.feed(body) + decoder.close()
    assert events == [TextDelta("ok"), Finish("stop")]  # the cut usage event is discarded
    assert decoder.truncated


def test_unterminated_done_after_the_finish_reason_ends_normally() -> None:
    body = sse({"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]})
    assert decode(body + b"data: [DONE]") == [TextDelta("ok"), Finish("stop")]


def test_done_without_finish_reason_synthesizes_stop() -> None:
    body = sse({"choices": [{"index": 0, "delta": {"content": "ok"}}]}, "[DONE]")
    assert decode(body) == [TextDelta("ok"), Finish("stop")]


def test_json_body_instead_of_a_stream() -> None:
    body = b'{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant",'
    body += b'"content":"Whole."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}'
    events = decode(body)
    assert events[0] == TextDelta("Whole.")
    assert events[-2:] == [Usage(1, 1, 2), Finish("stop")]


def test_json_body_with_a_byte_order_mark() -> None:
    body = b'\xef\xbb\xbf{"choices":[{"index":0,"message":{"content":"BOM."},"finish_reason":"stop"}]}'
    assert decode(body) == [
        TextDelta("BOM."),
        ProtocolNote("the endpoint answered with one JSON body instead of a stream"),
        Finish("stop"),
    ]
    assert decode(body, pieces=[body[:2], body[2:5], body[5:]]) == decode(body)


def test_error_body_with_status_200() -> None:
    events = decode(
        b'{"error": {"message": "Invalid API key", "type": "invalid_request_error", "code": 401}}'
    )
    assert events == [StreamFailed("auth", "Invalid API key", 401, "401")]


def test_openai_tool_calls_split_inside_escapes() -> None:
    events = decode(transcript("openai_tool_calls.sse"))
    content = 'const s = "ü😀";\nok'
    assert [e for e in events if not isinstance(e, ToolArgPreview)] == [
        ToolCallStarted("call_A", "write_file"),
        ToolCallStarted("call_B", "read_file"),
        ToolCallReady("call_A", "write_file", {"path": "/src/a.ts", "content": content}),
        ToolCallReady("call_B", "read_file", {"path": "/b.txt"}),
        Usage(50, 30, 80),
        Finish("tool_calls"),
    ]
    previews = of(events, ToolArgPreview)
    assert previews[-1] == ToolArgPreview("call_A", "content", content)
    assert all(content.startswith(p.text) for p in previews if p.field == "content")
    assert [p for p in previews if p.field == "path"] == [ToolArgPreview("call_A", "path", "/src/a.ts")]


def test_ollama_whole_call_in_one_chunk() -> None:
    assert decode(transcript("ollama_whole_call.sse")) == [
        ToolCallStarted("call_x1", "read_file"),
        ToolCallReady("call_x1", "read_file", {"path": "/a.txt"}),
        Finish("tool_calls"),
    ]


def test_vllm_first_delta_without_arguments_and_alias_name() -> None:
    assert decode(transcript("vllm_no_arguments_key.sse")) == [
        ToolCallStarted("chatcmpl-tool-9", "list_directory"),
        ToolCallReady("chatcmpl-tool-9", "list_directory", {"path": "/", "recursive": True}),
        Finish("tool_calls"),
    ]


def test_gemini_no_index_new_id_new_call_and_stop_finish() -> None:
    assert decode(transcript("gemini_no_index.sse")) == [
        ToolCallStarted("function-call-1", "read_file"),
        ToolCallStarted("function-call-2", "read_file"),
        ToolCallReady("function-call-1", "read_file", {"path": "/a"}),
        ToolCallReady("function-call-2", "read_file", {"path": "/b"}),
        Finish("tool_calls"),
    ]


def test_old_ollama_object_arguments_without_index() -> None:
    assert decode(transcript("old_ollama_no_index.sse")) == [
        ToolCallStarted("call_1", "read_file"),
        ToolCallStarted("call_2", "shell_exec"),
        ToolArgPreview("call_2", "command", "ls"),
        ToolCallReady("call_1", "read_file", {"path": "/x"}),
        ToolCallReady("call_2", "shell_exec", {"command": "ls"}),
        Finish("tool_calls"),
    ]


def test_kimi_two_entries_same_index_and_null_id() -> None:
    assert decode(transcript("kimi_same_index.sse")) == [
        ToolCallStarted("functions.read_file:0", "read_file"),
        ToolCallReady("functions.read_file:0", "read_file", {"path": "/k.py"}),
        Finish("tool_calls"),
    ]


def test_index_from_one_changing_id_and_repeated_finish() -> None:
    assert decode(transcript("index_from_one.sse")) == [
        ToolCallStarted("call_one", "search"),
        ToolCallStarted("call_two", "read_file"),
        ToolCallReady("call_one", "search", {"query": "def main"}),
        ToolCallReady("call_two", "read_file", {"path": "/m.py"}),
        Finish("tool_calls"),
    ]


def test_length_cut_call_is_invalid() -> None:
    reason = (
        "invalid arguments for write_file: the arguments were cut off at the output token limit; "
        "send a shorter call"
    )
    assert decode(transcript("length_cut.sse")) == [
        TextDelta("Writing it now."),
        ToolCallStarted("call_L", "write_file"),
        ToolArgPreview("call_L", "path", "/big.txt"),
        ToolArgPreview("call_L", "content", "aaaa"),
        ToolCallInvalid("call_L", reason, "write_file"),
        Finish("length"),
    ]


def test_missing_finish_reason_with_done_finishes_as_tool_calls() -> None:
    assert decode(transcript("missing_finish.sse")) == [
        TextDelta("Reading."),
        ToolCallStarted("call_M", "read_file"),
        ToolCallReady("call_M", "read_file", {"path": "/r"}),
        Finish("tool_calls"),
    ]


def test_truncated_tool_call_is_invalid_and_stream_fails() -> None:
    body = transcript("missing_finish.sse").replace(b"data: [DONE]\n\n", b"")
    assert decode(body) == [
        TextDelta("Reading."),
        ToolCallStarted("call_M", "read_file"),
        ToolCallInvalid("call_M", "the reply was cut off before the call was complete", "read_file"),
        StreamFailed("network", TRUNCATED),
    ]


def test_reused_index_for_a_second_call() -> None:
    call = {"index": 0, "type": "function"}
    body = sse(
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {
                                **call,
                                "id": "a",
                                "function": {"name": "read_file", "arguments": '{"path":"/1"}'},
                            }
                        ]
                    }
                }
            ]
        },
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {
                                **call,
                                "id": "b",
                                "function": {"name": "read_file", "arguments": '{"path":"/2"}'},
                            }
                        ]
                    }
                }
            ]
        },
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        "[DONE]",
    )
    ready = of(decode(body), ToolCallReady)
    assert [(e.id, e.arguments["path"]) for e in ready] == [("a", "/1"), ("b", "/2")]


def test_missing_name_and_non_object_arguments_are_invalid_calls() -> None:
    body = sse(
        {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "a", "function": {"arguments": "{}"}}]}}]},
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {"index": 1, "id": "b", "function": {"name": "grep", "arguments": "[1]"}}
                        ]
                    }
                }
            ]
        },
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 2,
                                "id": "c",
                                "function": {"name": "read_file", "arguments": '{"path":"/ok"}'},
                            }
                        ]
                    }
                }
            ]
        },
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        "[DONE]",
    )
    events = decode(body)
    assert [(e.id, e.name) for e in of(events, ToolCallInvalid)] == [("a", None), ("b", "search")]
    assert of(events, ToolCallReady) == [ToolCallReady("c", "read_file", {"path": "/ok"})]


def test_repairable_arguments_are_repaired_once_with_a_note() -> None:
    body = sse(
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "a",
                                "function": {"name": "read_file", "arguments": '{"path":"/r",}'},
                            }
                        ]
                    }
                }
            ]
        },
        {"choices": [{"delta": {}, "finish_reason": "tool_calls"}]},
        "[DONE]",
    )
    events = decode(body)
    assert of(events, ToolCallReady) == [ToolCallReady("a", "read_file", {"path": "/r"})]
    assert "trailing comma" in of(events, ProtocolNote)[0].message


def test_double_encoded_arguments_are_unwrapped() -> None:
    arguments = '"{\\"path\\": \\"/d\\"}"'
    body = sse(
        {
            "choices": [
                {
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "a", "function": {"name": "read_file", "arguments": arguments}}
                        ]
                    }
                }
            ]
        },
        "[DONE]",
    )
    assert of(decode(body), ToolCallReady) == [ToolCallReady("a", "read_file", {"path": "/d"})]


def test_feed_after_close_and_empty_chunks_are_harmless() -> None:
    decoder = StreamDecoder()
    assert decoder.feed(b"") == []
    decoder.close()
    assert decoder.feed(b"data: x\n\n") == []
    assert decoder.close() == []


def test_input_after_done_is_ignored_and_last_usage_wins() -> None:
    body = sse(
        {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
        {"choices": [{"delta": {"content": "a"}, "finish_reason": "stop"}]},
        {"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 5, "total_tokens": 6}},
        "[DONE]",
        {"choices": [{"delta": {"content": "late"}}]},
        "[DONE]",
    )
    assert decode(body) == [TextDelta("a"), Usage(1, 5, 6), Finish("stop")]


def test_a_streamed_calls_path_is_previewed_once_and_whole_before_its_content() -> None:
    preview = ArgumentPreview("c", ("content",))
    assert preview.show({"path": "/sr"}) == []  # the path may still grow
    assert preview.show({"path": "/src/a.ts", "content": "x"}) == [
        ToolArgPreview("c", "path", "/src/a.ts"),
        ToolArgPreview("c", "content", "x"),
    ]
    assert preview.show({"path": "/src/a.ts", "content": "xy"}) == [ToolArgPreview("c", "content", "xy")]
    late = ArgumentPreview("d", ("content",))
    assert late.show({"content": "x", "path": "/a"}) == [ToolArgPreview("d", "content", "x")]
    assert late.final({"content": "x", "path": "/ab"}) == [ToolArgPreview("d", "path", "/ab")]
