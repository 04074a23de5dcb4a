"""The lower stages on their own: UTF-8, SSE, chunks, inline thinking, repair, errors, streams, records."""

from __future__ import annotations

from agentlite.events import ProtocolNote, StreamFailed, Usage
from agentlite.stream.chunks import ChunkDecoder, Content, Done, FinishReason, Reasoning, ToolDelta
from agentlite.stream.ids import CallIds
from agentlite.stream.json_repair import repaired
from agentlite.stream.ndjson_records import Broken, Prose, Record, RecordSplitter
from agentlite.stream.ndjson_streams import ChunkStream
from agentlite.stream.provider_error import failure_from_value
from agentlite.stream.sse import SseDecoder, SseEvent
from agentlite.stream.think import ThinkSplitter
from agentlite.stream.tool_specs import ToolCatalog
from agentlite.stream.utf8 import Utf8Decoder

from .support import TOOLS


def test_utf8_character_cut_between_chunks() -> None:
    decoder = Utf8Decoder()
    data = "ü😀".encode()
    assert (
        decoder.feed(data[:1]) + decoder.feed(data[1:4]) + decoder.feed(data[4:]) + decoder.close() == "ü😀"
    )
    cut = Utf8Decoder()
    assert cut.feed(data[:3]) + cut.close() == "ü\ufffd"


def sse_all(*parts: str) -> list[SseEvent]:
    decoder = SseDecoder()
    events = [event for part in parts for event in decoder.feed(part)]
    return events + decoder.close()


def test_sse_line_endings_bom_comments_and_multi_line_data() -> None:
    events = sse_all("\ufeff: hi\r", "\ndata: a\r\ndata:b\rid: 7\revent: x\n\r", "\ndata: c\n\n")
    assert events == [SseEvent("a\nb", "x", "7"), SseEvent("c", "message", "7")]


def test_sse_field_without_colon_and_empty_event_are_ignored() -> None:
    assert sse_all("data\n\n", "event: e\n\n", "retry: 5\n\n") == [SseEvent("", "message", None)]


def test_sse_unterminated_last_event_is_discarded_and_flagged() -> None:
    decoder = SseDecoder()
    assert decoder.feed("data: a\n\ndata: [DONE]") == [SseEvent("a")]
    assert decoder.close() == []
    assert decoder.unterminated
    ended_line = SseDecoder()  # the line ended, the event did not (no blank line)
    assert ended_line.feed("data: a\n\ndata: b\r\n") == [SseEvent("a")]
    assert ended_line.close() == [] and ended_line.unterminated


def test_sse_terminated_body_is_not_flagged() -> None:
    decoder = SseDecoder()
    assert decoder.feed("data: a\r\n\r\n: bye\n") == [SseEvent("a")]
    assert decoder.close() == [] and not decoder.unterminated


def test_sse_error_field_is_kept() -> None:
    assert sse_all('error: {"code":500}\n\n') == [SseEvent(None, fields={"error": '{"code":500}'})]


def test_chunk_decoder_parts() -> None:
    decoder = ChunkDecoder()
    events = [
        SseEvent(
            '{"choices":[{"index":0,"delta":{"reasoning":"r","content":"c"},"finish_reason":"end_turn"}]}'
        ),
        SseEvent('{"choices":[{"index":1,"delta":{"content":"other choice"}}]}'),
        SseEvent(
            '{"choices":[{"delta":{"tool_calls":[{"index":"0","id":"null","function":{"name":"f"}}]}}]}'
        ),
        SseEvent('{"choices":[],"usage":{"input_tokens":3,"output_tokens":4}}'),
        SseEvent("not json"),
        SseEvent("not json either"),
        SseEvent(" [DONE] "),
    ]
    assert decoder.feed(events) == [
        Reasoning("r"),
        Content("c"),
        FinishReason("stop"),
        # "other choice" is not read: the reply follows choice 0, the first that spoke (docs/protocol.md)
        ToolDelta(0, None, "f", None),
        Usage(3, 4, 7),
        ProtocolNote("ignored an event that is not a JSON object: 'not json'"),
        Done(),
    ]


def test_provider_error_shapes() -> None:
    assert failure_from_value("plain words") == StreamFailed("server", "plain words")
    assert failure_from_value({"error": {"message": "slow down", "code": 429}}).error_type == "rate_limit"
    assert failure_from_value('{"message":"This model\'s maximum context length is 8192"}').error_type == (
        "context_length"
    )
    assert failure_from_value({"type": "authentication_error", "message": "bad key"}).error_type == "auth"
    assert failure_from_value({"message": "overloaded", "code": "503"}) == StreamFailed(
        "server", "overloaded", 503, "503"
    )


def think(*parts: str) -> list[tuple[str, str]]:
    splitter = ThinkSplitter()
    out = [piece for part in parts for piece in splitter.feed(part)]
    return out + splitter.close()


def test_think_tags_only_open_at_line_start() -> None:
    assert think("a <think>b\n  <thi", "nk>\n deep </thi", "nking>  \n\nc") == [
        ("text", "a <think>b\n  "),
        ("thinking", "deep "),
        ("text", "c"),
    ]


def test_think_unclosed_thinking_and_held_tag_at_the_end() -> None:
    assert think("<thought>x <") == [("thinking", "x "), ("thinking", "<")]
    assert think("hi\n<th") == [("text", "hi\n"), ("text", "<th")]


def test_repair_is_unambiguous_or_nothing() -> None:
    assert repaired('{"a": {"b": 1}') == ({"a": {"b": 1}}, "added the missing '}'")
    assert repaired('{"a": [1, 2,]}') == ({"a": [1, 2]}, "removed a trailing comma")
    assert repaired('{"a": 1}}') == ({"a": 1}, "removed 1 extra closing bracket(s)")
    assert repaired('{"a": "b, }') is None  # a string cut off
    assert repaired('{"a": 1,') is None  # more was coming
    assert repaired('{"a" 1}') is None
    assert repaired('{"a": 1}') is None  # nothing to repair


def test_chunk_stream_integrity() -> None:
    stream = ChunkStream("s")
    assert stream.chunk(0, "aGVsbG8g", True) == "hello "
    assert stream.chunk(1, "d29y", True) == "wor"
    assert stream.chunk(2, "bGQ", True) == ""  # carried until the next quantum
    stream.end(None)
    assert stream.ok and stream.text == "hello world" and not stream.hash_given
    wrong = ChunkStream("w")
    wrong.chunk(0, "x", False)
    wrong.end("sha256:" + "0" * 64)
    assert wrong.error is not None and "mismatch" in wrong.error
    late = ChunkStream("l")
    late.chunk(1, "x", False)
    assert late.error == "stream l: seq 1 where 0 was expected (chunks 0..0 are missing)"


def test_record_splitter() -> None:
    splitter = RecordSplitter()
    items = splitter.feed('{"type":"done"} trailing words\nprose\n```\n{"a":\n 1}{"b":2}\n{"type":"x"')
    items += splitter.close()
    assert items == [
        Record({"type": "done"}),
        Prose("trailing words\n"),
        Prose("prose\n"),
        Record({"a": 1}),
        Record({"b": 2}),
        Broken('{"type":"x"'),
    ]


def test_catalog_and_ids() -> None:
    catalog = ToolCatalog(TOOLS)
    assert catalog.canonical("file_write") == "edit_file" and catalog.canonical("other") == "other"
    assert catalog.stream_field("file_write", "new") == "newCode"
    assert catalog.stream_field("edit_file", "Code") is None
    ids = CallIds()
    assert [ids.claim("a"), ids.claim("a"), ids.claim(), ids.claim()] == ["a", "a_2", "call_3", "call_4"]
