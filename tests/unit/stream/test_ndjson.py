"""The `ndjson` and `ndjson-text` dialects (docs/protocol.md, ndjson and ndjson-text): records, streams,
integrity, early readiness."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from agentlite.events import (
    Event,
    Finish,
    ProtocolNote,
    TextDelta,
    ThinkingDelta,
    ToolArgPreview,
    ToolCallInvalid,
    ToolCallReady,
    ToolCallStarted,
)
from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.ndjson_writer import NdjsonWriter

from .support import TOOLS, content_chunks, decode, normalized, of, texts, transcript

EDIT = {"path": "src/a.ts", "originalCode": "let a = 1;\n", "newCode": "let a = 2; // ü\n"}


def run(text: str, dialect: str = "ndjson", step: int | None = None) -> list[Event]:
    decoder = StreamDecoder.for_text(dialect, TOOLS)
    pieces = [text] if step is None else [text[i : i + step] for i in range(0, len(text), step)]
    events: list[Event] = []
    for piece in pieces:
        events += decoder.feed(piece)
    return events + decoder.close()


def line(**fields: Any) -> str:
    return json.dumps(fields, separators=(",", ":")) + "\n"


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def stream(stream_id: str, text: str, hashed: bool = True, size: int = 8) -> str:
    data = b64(text)
    out = line(type="bs64_start", bs64_id=stream_id)
    for seq, start in enumerate(range(0, len(data), size)):
        out += line(type="bs64_chunk", bs64_id=stream_id, seq=seq, data_b64=data[start : start + size])
    return out + line(type="bs64_end", bs64_id=stream_id, hash=sha(text) if hashed else None)


def full_reply(base64_chunks: bool = True) -> str:
    writer = NdjsonWriter(base64=base64_chunks, chunk_size=8)
    writer.thinking("w1", "Edit a.ts.")
    writer.tool("w1", "file_write", EDIT, ("originalCode", "newCode"))
    writer.tool("w2", "shell_exec", {"command": "npm test"}, ("command",))
    writer.text("Done.")
    writer.done()
    return writer.render()


def test_full_reply_event_by_event() -> None:
    assert normalized(run(full_reply())) == [
        ThinkingDelta("Edit a.ts.", "w1"),
        ToolCallStarted("w1", "edit_file"),
        ToolCallReady("w1", "edit_file", EDIT),
        ToolCallStarted("w2", "shell_exec"),
        ToolCallReady("w2", "shell_exec", {"command": "npm test"}),
        TextDelta("Done."),
        Finish("tool_calls"),
        (
            "previews",
            [
                (("w1", "newCode"), EDIT["newCode"]),
                (("w1", "originalCode"), EDIT["originalCode"]),
                (("w1", "path"), EDIT["path"]),
                (("w2", "command"), "npm test"),
            ],
        ),
    ]


def test_previews_grow_while_the_stream_arrives() -> None:
    content = "".join(f"line {i}\n" for i in range(300))
    writer = NdjsonWriter(chunk_size=16)
    writer.tool("t", "create_file", {"path": "/p", "content": content}, ("content",))
    events = run(writer.render())
    assert of(events, ToolArgPreview)[0] == ToolArgPreview("t", "path", "/p")  # named before its content
    previews = [e.text for e in of(events, ToolArgPreview) if e.field == "content"]
    assert previews[0] == content[:12]  # the first chunk shows at once
    assert 10 < len(previews) < 200  # then every sixteenth of growth (stream/preview.py), not every chunk
    assert all(content.startswith(p) for p in previews) and previews[-1] == content
    assert events.index(ToolCallReady("t", "create_file", {"path": "/p", "content": content})) > events.index(
        ToolArgPreview("t", "content", content)
    )


def test_plain_text_chunks_give_the_same_events() -> None:
    assert normalized(run(full_reply(False), "ndjson-text")) == normalized(run(full_reply()))


def test_tool_is_ready_while_the_reply_goes_on() -> None:
    decoder = StreamDecoder.for_text("ndjson", TOOLS)
    reply = full_reply()
    cut = reply.index('{"type":"tool","id":"w2"')
    first = decoder.feed(reply[:cut])
    assert of(first, ToolCallReady) == [ToolCallReady("w1", "edit_file", EDIT)]


def test_seed_spellings_path_b64_and_new_bs64() -> None:
    text = (
        line(
            type="tool",
            id="w1",
            tool="file_write",
            data={"path_b64": "src/a.ts", "originalCode_b64": "b2", "new_bs64": "b1"},
        )
        + stream("b1", EDIT["newCode"])
        + stream("b2", EDIT["originalCode"])
        + line(type="done")
    )
    assert of(run(text), ToolCallReady) == [ToolCallReady("w1", "edit_file", EDIT)]


def test_seed_multi_line_record() -> None:
    text = (
        '{"type":"tool","id":"w1","tool":"file_create","data":{\n'
        '    "path_b64":"src/n.ts",\n'
        '    "content_b64":"b1"\n'
        "  }}\n" + stream("b1", "export {};\n")
    )
    assert of(run(text, step=7), ToolCallReady) == [
        ToolCallReady("w1", "create_file", {"path": "src/n.ts", "content": "export {};\n"})
    ]


def test_chunks_before_the_tool_record_are_previewed_when_it_arrives() -> None:
    text = stream("b1", "ls -la") + line(type="tool", id="t", tool="shell_exec", data={"command_b64": "b1"})
    assert run(text) == [
        ToolCallStarted("t", "shell_exec"),
        ToolArgPreview("t", "command", "ls -la"),
        ToolCallReady("t", "shell_exec", {"command": "ls -la"}),
        Finish("tool_calls"),
    ]


def bad_stream_reply(broken: str) -> str:
    """Tool `bad` refers to the broken stream b1; tool `good` to an intact b2."""
    return (
        line(type="tool", id="bad", tool="file_create", data={"path": "/x", "content_b64": "b1"})
        + broken
        + line(type="tool", id="good", tool="shell_exec", data={"command_b64": "b2"})
        + stream("b2", "echo ok")
        + line(type="text", data_b64="b3")
        + stream("b3", "Some text.")
    )


def assert_only_bad_fails(broken: str, words: str) -> None:
    events = run(bad_stream_reply(broken))
    invalid = of(events, ToolCallInvalid)
    assert [(e.id, e.name) for e in invalid] == [("bad", "create_file")], events
    assert words in invalid[0].reason, invalid[0].reason
    assert of(events, ToolCallReady) == [ToolCallReady("good", "shell_exec", {"command": "echo ok"})]
    assert texts(events)[0] == "Some text."


def chunk(seq: int, data: str, stream_id: str = "b1") -> str:
    return line(type="bs64_chunk", bs64_id=stream_id, seq=seq, data_b64=data)


START, END = line(type="bs64_start", bs64_id="b1"), line(type="bs64_end", bs64_id="b1", hash=None)


def test_seq_gap() -> None:
    assert_only_bad_fails(START + chunk(0, b64("abc")) + chunk(2, b64("def")) + END, "missing")


def test_seq_repeat() -> None:
    assert_only_bad_fails(START + chunk(0, b64("abc")) + chunk(0, b64("abc")) + END, "repeated")


def test_chunk_for_unknown_stream() -> None:
    assert_only_bad_fails(chunk(0, b64("abc")) + END, "before bs64_start")


def test_chunk_for_ended_stream_before_the_tool_record() -> None:
    broken = START + chunk(0, b64("abc")) + END + chunk(1, b64("def"))
    text = broken + line(type="tool", id="bad", tool="file_create", data={"path": "/x", "content_b64": "b1"})
    invalid = of(run(text), ToolCallInvalid)
    assert "after bs64_end" in invalid[0].reason


def test_invalid_base64() -> None:
    assert_only_bad_fails(START + chunk(0, "@@@@") + END, "invalid base64")


def test_wrong_hash() -> None:
    end = line(type="bs64_end", bs64_id="b1", hash=sha("something else"))
    assert_only_bad_fails(START + chunk(0, b64("abc")) + end, "hash mismatch")


def test_never_ending_stream() -> None:
    assert_only_bad_fails(START + chunk(0, b64("abc")), "never ended")


def test_not_utf8() -> None:
    data = base64.b64encode(b"\xff\xfe").decode()
    assert_only_bad_fails(START + chunk(0, data) + END, "not UTF-8")


def test_malformed_chunk_record_fails_its_stream() -> None:
    broken = START + '{"type":"bs64_chunk","bs64_id":"b1","seq":0,"data_b64":"YWJj"]\n' + END
    assert_only_bad_fails(broken, "not valid JSON")


def test_null_hash_reports_the_computed_digest() -> None:
    text = line(type="tool", id="t", tool="shell_exec", data={"command_b64": "b1"}) + stream(
        "b1", "ls", hashed=False
    )
    ready = of(run(text), ToolCallReady)[0]
    assert ready.note is not None and sha("ls") in ready.note


def test_hash_of_the_base64_text_is_accepted() -> None:
    data = b64("ls")
    end = line(type="bs64_end", bs64_id="b1", hash="sha256:" + hashlib.sha256(data.encode()).hexdigest())
    text = line(type="tool", id="t", tool="shell_exec", data={"command_b64": "b1"})
    text += line(type="bs64_start", bs64_id="b1") + chunk(0, data) + end
    assert of(run(text), ToolCallReady) == [ToolCallReady("t", "shell_exec", {"command": "ls"})]


def test_base64_cut_anywhere_and_padded_per_chunk() -> None:
    text = line(type="tool", id="t", tool="shell_exec", data={"command_b64": "b1"}) + START
    text += chunk(0, b64("echo")[:3]) + chunk(1, b64("echo")[3:]) + chunk(2, b64("!")) + chunk(3, "IA") + END
    assert of(run(text), ToolCallReady)[0].arguments == {"command": "echo! "}


def test_prose_lines_become_text_with_a_note_and_fences_are_dropped() -> None:
    text = "Sure, here it is:\n```json\n" + full_reply() + "```\n"
    events = run(text)
    assert texts(events)[0] == "Sure, here it is:\nDone."
    assert len(of(events, ProtocolNote)) == 1
    assert [e.id for e in of(events, ToolCallReady)] == ["w1", "w2"]


def test_unfinished_record_does_not_swallow_the_next() -> None:
    text = '{"type":"text","data_b64":"b9"\n' + line(
        type="tool", id="t", tool="read_file", data={"path": "/r"}
    )
    events = run(text)
    assert of(events, ToolCallReady) == [ToolCallReady("t", "read_file", {"path": "/r"})]
    assert "repaired" in of(events, ProtocolNote)[0].message


def test_unreferenced_stream_is_shown_as_text() -> None:
    events = run(stream("b7", "orphan"))
    assert texts(events)[0] == "orphan"
    assert "never referenced" in of(events, ProtocolNote)[0].message


def test_literal_text_records_and_json_style_call() -> None:
    text = line(type="text", text="Hello ") + '{"tool": "read_file", "arguments": {"path": "/j"}}\n'
    events = run(text)
    assert events[0] == TextDelta("Hello ")
    assert of(events, ToolCallReady)[0].arguments == {"path": "/j"}


def test_through_sse_split_into_tokens() -> None:
    reply = full_reply()
    body = content_chunks(*[reply[i : i + 5] for i in range(0, len(reply), 5)])
    events = decode(body, "ndjson")
    assert normalized(events) == normalized(run(reply))


def test_transcript_edit_and_test() -> None:
    edit = {"path": "src/a.ts", "originalCode": "let a = 1;\n", "newCode": "let a = 2; // ü 😀\n"}
    assert decode(transcript("ndjson_edit_and_test.sse"), "ndjson") == [
        ThinkingDelta("Edit a.ts", "w1"),
        ThinkingDelta(", then te", "w1"),
        ThinkingDelta("st.", "w1"),
        ToolCallStarted("w1", "edit_file"),
        ToolArgPreview("w1", "path", "src/a.ts"),
        ToolArgPreview("w1", "originalCode", "let a = 1"),
        ToolArgPreview("w1", "newCode", "let a = 2"),
        ToolArgPreview("w1", "originalCode", "let a = 1;\n"),
        ToolArgPreview("w1", "newCode", "let a = 2; // ü 😀\n"),
        ToolCallReady("w1", "edit_file", edit),
        ToolCallStarted("w2", "shell_exec"),
        ToolArgPreview("w2", "command", "npm test"),
        ToolCallReady("w2", "shell_exec", {"command": "npm test"}),
        TextDelta("Done. Bot"),
        TextDelta("h steps r"),
        TextDelta("an."),
        Finish("tool_calls"),
    ]


def test_duplicate_tool_id_gets_its_own_id_and_records_without_name_are_invalid() -> None:
    text = (
        line(type="tool", id="t", tool="read_file", data={"path": "/1"})
        + line(type="tool", id="t", tool="read_file", data={"path": "/2"})
        + line(type="tool", id="u", data={"path": "/3"})
        + line(type="mystery")
    )
    events = run(text)
    assert [(e.id, e.arguments) for e in of(events, ToolCallReady)] == [
        ("t", {"path": "/1"}),
        ("t_2", {"path": "/2"}),
    ]
    assert [(e.id, e.name) for e in of(events, ToolCallInvalid)] == [("u", None)]
    assert "unknown type" in of(events, ProtocolNote)[0].message


def test_chunk_after_the_end_of_a_stream_whose_tool_ran_is_noted() -> None:
    text = line(type="tool", id="t", tool="shell_exec", data={"command_b64": "b1"}) + stream("b1", "ls")
    text += chunk(1, b64("rm"))
    events = run(text)
    assert of(events, ToolCallReady) == [ToolCallReady("t", "shell_exec", {"command": "ls"})]
    assert "after its bs64_end" in of(events, ProtocolNote)[0].message


def test_failed_thinking_stream_is_noted() -> None:
    text = line(type="thinking", id="t", data_b64="b1") + START + chunk(0, b64("hm")) + chunk(5, b64("x"))
    events = run(text)
    assert of(events, ThinkingDelta) == [ThinkingDelta("hm", "t")]
    assert "missing" in of(events, ProtocolNote)[0].message
