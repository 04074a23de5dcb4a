"""The `json` dialect (docs/protocol.md, json): calls as JSON objects in the text, thinking, repair,
withholding."""

from __future__ import annotations

from agentlite.events import (
    Event,
    Finish,
    ProtocolNote,
    StreamFailed,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
)
from agentlite.stream.decoder import StreamDecoder

from .support import TOOLS, content_chunks, decode, normalized, of, texts, transcript


def run(text: str, step: int | None = None) -> list[Event]:
    decoder = StreamDecoder.for_text("json", TOOLS)
    pieces = [text] if step is None else [text[i : i + step] for i in range(0, len(text), step)]
    events: list[Event] = []
    for piece in pieces:
        events += decoder.feed(piece)
    return events + decoder.close()


READ = '{"tool":"read_file","arguments":{"path":"/src/App.tsx"}}'


def test_call_alone_on_its_line_between_prose() -> None:
    events = run(f"Let me read it.\n{READ}\nDone.")
    assert events == [
        TextDelta("Let me read it.\n"),
        ToolCallStarted("call_1", "read_file"),
        ToolCallReady("call_1", "read_file", {"path": "/src/App.tsx"}),
        TextDelta("Done."),
        Finish("tool_calls"),
    ]


def test_same_events_char_by_char_and_no_raw_json_in_text() -> None:
    text = f"Let me read it.\n{READ}\nDone."
    events = run(text, step=1)
    assert normalized(events) == normalized(run(text))
    assert all('"tool"' not in e.text for e in of(events, TextDelta))


def test_fenced_call_with_alias_and_streamed_preview() -> None:
    content = 'export const Button = () => <button>"Hi"</button>;\n'
    call = '{"tool": "file_create", "arguments": {"path": "/src/Button.tsx", "content": %s}}'
    import json

    text = "Creating it:\n```json\n" + call % json.dumps(content) + "\n```\nCreated."
    events = run(text, step=3)
    assert of(events, ToolCallReady) == [
        ToolCallReady("call_1", "create_file", {"path": "/src/Button.tsx", "content": content})
    ]
    assert of(events, ToolArgPreview)[-1] == ToolArgPreview("call_1", "content", content)
    assert len(of(events, ToolArgPreview)) > 1  # it grew while streaming
    assert texts(events)[0] == "Creating it:\nCreated."


def test_call_inside_thinking_does_not_run() -> None:
    text = f"<think>\nI could call {READ}\n{READ}\n</think>\nNo call needed."
    events = run(text)
    assert not of(events, ToolCallStarted)
    assert texts(events) == ("No call needed.", f"I could call {READ}\n{READ}\n")
    assert events[-1] == Finish("stop")


def test_json_that_is_not_a_call_and_code_blocks_stay_text() -> None:
    text = 'Config: {"a": 1}\n{"name": "Bob", "age": 3}\n```python\n{"tool": "x"}\n```\n{"debug": true}\nend'
    events = run(text)
    assert not of(events, ToolCallStarted)
    assert texts(events)[0] == text


def test_missing_closing_brace_is_repaired_before_prose() -> None:
    events = run('{"tool":"read_file","arguments":{"path":"/y"}\nThanks')
    assert of(events, ToolCallReady) == [ToolCallReady("call_1", "read_file", {"path": "/y"})]
    assert "missing" in of(events, ProtocolNote)[0].message
    assert texts(events)[0] == "Thanks"


def test_trailing_comma_and_extra_brace_are_repaired() -> None:
    events = run(
        '{"tool":"shell_exec","arguments":{"command":"ls",}}\n{"tool":"read_file","arguments":{"path":"/a"}}}\n'
    )
    assert [e.arguments for e in of(events, ToolCallReady)] == [{"command": "ls"}, {"path": "/a"}]
    assert len(of(events, ProtocolNote)) == 2
    assert texts(events)[0] == ""


def test_pretty_printed_call_spans_lines() -> None:
    text = '{\n  "tool": "search",\n  "arguments": {\n    "query": "TODO"\n  }\n}\nFound.'
    events = run(text, step=2)
    assert of(events, ToolCallReady) == [ToolCallReady("call_1", "search", {"query": "TODO"})]
    assert texts(events)[0] == "Found."


def test_unrepairable_call_is_invalid_and_later_text_survives() -> None:
    events = run('{"tool":"read_file","arguments":{"path" "/x"}}\nStill here.')
    invalid = of(events, ToolCallInvalid)
    assert [(e.id, e.name) for e in invalid] == [("call_1", "read_file")]
    assert invalid[0].reason.startswith("invalid_format")
    assert texts(events)[0] == "Still here."


def test_several_calls_in_one_fence_and_other_shapes() -> None:
    text = (
        "```json\n"
        '{"tool": "read_file", "arguments": {"path": "/a"}}\n'
        '{"name": "read_file", "arguments": "{\\"path\\": \\"/b\\"}"}\n'
        "```\n"
        '{"function": {"name": "grep", "arguments": {"query": "x"}}}\n'
        '{"tool": "list_files", "path": "/src"}\n'
    )
    events = run(text, step=5)
    assert [(e.name, e.arguments) for e in of(events, ToolCallReady)] == [
        ("read_file", {"path": "/a"}),
        ("read_file", {"path": "/b"}),
        ("search", {"query": "x"}),
        ("list_directory", {"path": "/src"}),
    ]
    assert texts(events)[0] == ""


def test_call_after_prose_on_the_same_line() -> None:
    events = run('Sure: {"tool": "read_file", "arguments": {"path": "/m"}} done\n')
    assert of(events, ToolCallReady) == [ToolCallReady("call_1", "read_file", {"path": "/m"})]
    assert texts(events)[0] == "Sure: done\n"


def test_raw_newline_inside_a_string_is_read_as_a_newline() -> None:
    events = run('{"tool": "write_file", "arguments": {"path": "/a", "content": "one\ntwo"}}\n')
    assert of(events, ToolCallReady)[0].arguments == {"path": "/a", "content": "one\ntwo"}


def test_truncated_reply_inside_a_call_is_invalid_not_repaired() -> None:
    body = content_chunks("Writing.\n", '{"tool":"write_file","arguments":{"path":"/a","content":"x"')
    body = body[: body.rindex(b"data: {")]  # no finish, no [DONE]
    events = decode(body, "json")
    assert [type(e) for e in events[-2:]] == [ToolCallInvalid, StreamFailed]
    assert texts(events)[0] == "Writing.\n"


def test_through_sse_finish_reason_tells_calls_are_due() -> None:
    body = content_chunks('{"tool":"read_file",', '"arguments":{"path":"/r"}}')
    events = decode(body, "json")
    assert events == [
        ToolCallStarted("call_1", "read_file"),
        ToolCallReady("call_1", "read_file", {"path": "/r"}),
        Finish("tool_calls"),  # the provider said "stop"; calls are due
    ]


def test_thinking_then_text_order_is_kept() -> None:
    events = run("<think>plan</think>\nAnswer.")
    assert events == [ThinkingDelta("plan"), TextDelta("Answer."), Finish("stop")]


def test_transcript_with_reasoning_channel() -> None:
    assert normalized(decode(transcript("json_read_file.sse"), "json")) == [
        ThinkingDelta("Need the file."),
        TextDelta("Let me read it.\n"),
        ToolCallStarted("call_1", "read_file"),
        ToolCallReady("call_1", "read_file", {"path": "/src/App.tsx"}),
        TextDelta("Done."),
        Finish("tool_calls"),
        ("previews", []),
    ]


def test_brace_cut_at_a_chunk_end_mid_line_is_held_until_decided() -> None:
    events = run('Use {"x": 1} or {"tool": "read_file", "arguments": {"path": "/q"}}\n', step=1)
    assert texts(events)[0] == 'Use {"x": 1} or '
    assert of(events, ToolCallReady) == [ToolCallReady("call_1", "read_file", {"path": "/q"})]


def test_unclosed_fence_and_pending_tick_are_released_at_the_end() -> None:
    assert texts(run("```json\n"))[0] == "```json\n"
    assert texts(run("text\n``"))[0] == "text\n``"


def test_array_of_calls_and_lines_that_only_look_like_arrays() -> None:
    text = (
        '[{"tool":"read_file","arguments":{"path":"/a"}}, {"tool":"grep","arguments":{"query":"x"}}]\n'
        "[link](http://x)\n[1, 2]\n"
    )
    events = run(text, step=1)
    assert [(e.id, e.name) for e in of(events, ToolCallReady)] == [
        ("call_1", "read_file"),
        ("call_2", "search"),
    ]
    assert texts(events)[0] == "[link](http://x)\n[1, 2]\n"


def test_cases_found_by_the_property_tests_decode_the_same_at_any_split() -> None:
    cases = [
        '{"tool":"read_file","arguments":{:"read_file","arguments":{"path":"/a"}}]\n',
        '[[{"tool":"read_file","arguments":{"path":"/a"}},\n {"tool":"grep","arguments":{"query":"x"}}]\n',
        '{"tool": "write_file"], "arguments": {"path": "/w"}}\nafter\n',
        '{"a": 1, "b": {"tool": "read_file", "arguments": {"path": "/n"}}}\n',
        '{"x" 1\nnext {"tool": "read_file", "arguments": {"path": "/p"}}\n',
    ]
    for text in cases:
        whole = normalized(run(text))
        for step in (1, 2, 3, 7):
            assert normalized(run(text, step)) == whole, (text, step)
