"""Which choice of a chunk is read (docs/protocol.md, "Choice index"): a reply follows one choice, the
first that carries content or a call (a role-only chunk does not choose), and ignores the others, so the
answers of `n` > 1 are never glued together. The lone-choice shapes stay read: a content-bearing choice
1 after a role chunk of choice 0, a lone choice numbered 1. Its first words are never dropped, so a reply
whose stream carried content never ends as an empty answer."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agentlite.events import Finish, TextDelta, ToolCallReady
from agentlite.stream.chunks import ChunkDecoder, Content
from agentlite.stream.sse import SseEvent

from .properties import PROFILE, pieces
from .support import decode, of, sse, texts


def chunk(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def test_content_in_choice_one_after_a_role_chunk_of_choice_zero_is_read() -> None:
    """The shape that lost every word: role in choice 0, then the content alone in choice 1."""
    body = sse(
        chunk(0, {"role": "assistant", "content": ""}),
        chunk(1, {"content": "Hel"}),
        chunk(1, {"content": "lo"}),
        chunk(1, {}, "stop"),
        "[DONE]",
    )
    events = decode(body)
    assert texts(events)[0] == "Hello"
    assert events[-1] == Finish("stop")


def test_choices_interleaved_one_per_chunk_are_not_glued() -> None:
    """`n` = 3 streamed as one choice per chunk, indexes 0, 1, 2 in turn: the reply is choice 0's alone."""
    words = {0: ["The ", "sky"], 1: ["A ", "cat"], 2: ["No ", "way"]}
    chunks: list[dict[str, Any] | str] = [chunk(i, {"role": "assistant", "content": ""}) for i in range(3)]
    for step in range(2):
        chunks += [chunk(i, {"content": words[i][step]}) for i in range(3)]
    chunks += [chunk(1, {}, "length"), chunk(0, {}, "stop"), chunk(2, {}, "length"), "[DONE]"]
    events = decode(sse(*chunks))
    assert texts(events)[0] == "The sky"
    assert events[-1] == Finish("stop"), "the finish of the followed choice, not another's"


def test_the_first_choice_that_speaks_is_followed_even_when_it_is_not_zero() -> None:
    body = sse(chunk(0, {"role": "assistant"}), chunk(2, {"content": "two "}), chunk(0, {"content": "zero"}))
    assert texts(decode(body + b"data: [DONE]\n\n"))[0] == "two "


def test_a_call_in_another_choice_after_the_followed_one_spoke_does_not_run() -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "delete_file", "arguments": '{"path": "/a"}'}}
    body = sse(chunk(0, {"content": "Hi"}), chunk(1, {"tool_calls": [call]}, "tool_calls"), "[DONE]")
    events = decode(body)
    assert texts(events)[0] == "Hi" and not of(events, ToolCallReady)


def test_a_tool_call_in_a_lone_choice_one_after_the_role_chunk_runs() -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "read_file", "arguments": '{"path": "/a"}'}}
    body = sse(chunk(0, {"role": "assistant"}), chunk(1, {"tool_calls": [call]}, "tool_calls"), "[DONE]")
    assert [(e.name, e.arguments) for e in of(decode(body), ToolCallReady)] == [("read_file", {"path": "/a"})]


def test_several_choices_per_chunk_keep_choice_zero_to_the_end() -> None:
    both = {"choices": [{"index": 1, "delta": {"content": "B"}}, {"index": 0, "delta": {"content": "A"}}]}
    body = sse(both, chunk(1, {"content": "b"}), chunk(0, {"content": "a"}), chunk(0, {}, "stop"), "[DONE]")
    assert texts(decode(body))[0] == "Aa", "a lone choice 1 after a several-choice chunk is the other answer"


def test_a_whole_completion_with_one_choice_numbered_one_is_read() -> None:
    decoder = ChunkDecoder()
    whole = {"choices": [{"index": 1, "message": {"role": "assistant", "content": "Hi"}}]}
    assert decoder.whole(whole) == [Content("Hi")]


def test_the_chunk_decoder_reads_a_lone_choice_after_another_index() -> None:
    decoder = ChunkDecoder()
    events = [SseEvent('{"choices":[{"index":0,"delta":{"role":"assistant"}}]}')]
    events.append(SseEvent('{"choices":[{"index":3,"delta":{"content":"x"}}]}'))
    assert decoder.feed(events) == [Content("x")]


@st.composite
def lone_choice_stream(draw: st.DrawFn) -> tuple[str, bytes]:
    """A reply of lone-choice chunks with any indexes (a role chunk first, sometimes), and the text of the
    choice it must follow: the first one whose chunk carried a word."""
    words = draw(
        st.lists(
            st.text(st.characters(codec="utf-8", exclude_characters="<"), max_size=6), min_size=1, max_size=8
        )
    )
    indexes = st.integers(min_value=0, max_value=3)
    chunks: list[dict[str, Any] | str] = []
    if draw(st.booleans()):
        chunks.append(
            chunk(draw(indexes), {"role": "assistant", "content": draw(st.sampled_from(["", None]))})
        )
    placed = [(draw(indexes), word) for word in words]
    chunks += [chunk(index, {"content": word}) for index, word in placed]
    if draw(st.booleans()):
        chunks.append(chunk(draw(indexes), {}, "stop"))
    chunks.append("[DONE]")
    followed = next((index for index, word in placed if word), None)
    return "".join(word for index, word in placed if index == followed), sse(*chunks)


@PROFILE
@given(lone_choice_stream(), st.data())
def test_a_lone_choice_stream_follows_one_choice_and_never_ends_empty(
    stream: tuple[str, bytes], data: st.DataObject
) -> None:
    text, body = stream
    events = decode(body, pieces=data.draw(pieces(body)))
    assert texts(events)[0] == text, "every word of the followed choice, and no other's, reaches the answer"
    assert bool(of(events, TextDelta)) == bool(text), "content streamed: never an empty answer"
