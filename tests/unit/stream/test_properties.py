"""Properties of every decoder: any split of the input gives the same events, and no input makes a
decoder raise. Counts come from the hypothesis profile (conftest.py); every decoder (SSE, native, json,
ndjson, ndjson-text) has its own tests, parametrized by dialect rather than sampling it, so each gets the
profile's count several times over: split invariance of valid replies, mutations, random input.

Splitting the HTTP body only changes how SSE framing arrives; the content text is chunked by the
provider's deltas. So the dialect properties vary both: the content is cut into random deltas, and the
resulting body into random network chunks.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlite.events import Event, ToolCallReady
from agentlite.stream.decoder import DIALECTS, StreamDecoder
from agentlite.stream.sse import SseDecoder, SseEvent

from .properties import PROFILE, mutated, mutated_text, pieces, text_cuts, token_soup
from .samples import JSON_TEXTS, JSON_TOKENS, NDJSON_TEXTS, NDJSON_TOKENS, bodies
from .support import TOOLS, content_chunks, normalized, sse, texts

NATIVE = bodies("native")
DIALECT_BODIES = {dialect: bodies(dialect) for dialect in ("json", "ndjson", "ndjson-text")}


def decode_pieces(dialect: str, chunks: list[bytes]) -> list[Event]:
    decoder = StreamDecoder(dialect=dialect, tools=TOOLS)
    events: list[Event] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    return events + decoder.close()


def decode_text(dialect: str, chunks: list[str]) -> list[Event]:
    decoder = StreamDecoder.for_text(dialect, TOOLS)
    events: list[Event] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    return events + decoder.close()


def assert_split_invariant(dialect: str, body: bytes, chunks: list[bytes]) -> None:
    assert b"".join(chunks) == body
    assert normalized(decode_pieces(dialect, chunks)) == normalized(decode_pieces(dialect, [body]))


@st.composite
def body_and_pieces(draw: st.DrawFn, source: st.SearchStrategy[bytes]) -> tuple[bytes, list[bytes]]:
    body = draw(source)
    return body, draw(pieces(body))


@st.composite
def tokenized(draw: st.DrawFn, source: st.SearchStrategy[str]) -> tuple[str, list[bytes]]:
    """A reply text, and an SSE body that streams it in random deltas, cut into random network chunks."""
    text = draw(source)
    body = content_chunks(*draw(text_cuts(text)))
    return text, draw(pieces(body))


def assert_tokenization_invariant(dialect: str, text: str, chunks: list[bytes]) -> None:
    assert normalized(decode_pieces(dialect, chunks)) == normalized(
        decode_pieces(dialect, [content_chunks(text)])
    )


# SSE


def sse_events(parts: list[str]) -> tuple[list[SseEvent], bool]:
    decoder = SseDecoder()
    events: list[SseEvent] = []
    for part in parts:
        events += decoder.feed(part)
    return events + decoder.close(), decoder.unterminated


SSE_TOKENS = [
    "data:",
    "data: ",
    "data: [DONE]",
    "event: error",
    "event:",
    "id: 7",
    "id: a\0b",
    "retry: 5",
    "error: boom",
    ":",
    ": keep-alive",
    "\r",
    "\n",
    "\r\n",
    "\n\n",
    "\ufeff",
    '{"choices":[]}',
]


@PROFILE
@given(body_and_pieces(st.one_of(st.sampled_from(NATIVE), mutated(NATIVE))))
def test_sse_events_do_not_depend_on_the_split(case: tuple[bytes, list[bytes]]) -> None:
    body, chunks = case
    text = body.decode("utf-8", "replace")
    parts, start = [], 0
    for chunk in chunks:
        parts.append(text[start : start + len(chunk)])
        start += len(chunk)
    parts.append(text[start:])
    assert sse_events(parts) == sse_events([text])


@PROFILE
@given(token_soup(SSE_TOKENS).flatmap(lambda text: st.tuples(st.just(text), text_cuts(text))))
def test_sse_random_text_any_split(case: tuple[str, list[str]]) -> None:
    text, parts = case
    assert sse_events(parts) == sse_events([text])


# native (the OpenAI chunk decoder and tool-call accumulation)


@PROFILE
@given(body_and_pieces(st.sampled_from(NATIVE)))
def test_native_transcripts_any_split(case: tuple[bytes, list[bytes]]) -> None:
    assert_split_invariant("native", *case)


@PROFILE
@given(body_and_pieces(mutated(NATIVE)))
def test_native_mutations_never_raise_and_any_split(case: tuple[bytes, list[bytes]]) -> None:
    assert_split_invariant("native", *case)


def utf16_units(text: str) -> str:
    """`text` with each character outside the BMP written as its two surrogate halves."""
    return "".join(char if ord(char) < 0x10000 else _halves(ord(char) - 0x10000) for char in text)


def _halves(offset: int) -> str:
    return chr(0xD800 + (offset >> 10)) + chr(0xDC00 + (offset & 0x3FF))


ASTRAL_TEXT = st.text(st.sampled_from(["a", " ", "\n", "ü", "中", "\U0001f600", "\U0001d11e"]), max_size=30)


@PROFILE
@given(ASTRAL_TEXT.flatmap(lambda text: st.tuples(st.just(text), text_cuts(utf16_units(text)))))
def test_native_content_cut_between_utf16_halves(case: tuple[str, list[str]]) -> None:
    text, deltas = case
    chunks = [{"choices": [{"index": 0, "delta": {"content": d, "reasoning": d}}]} for d in deltas]
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode() + b"data: [DONE]\n\n"
    events = decode_pieces("native", [body])
    assert texts(events) == (text, text)


@PROFILE
@pytest.mark.parametrize("dialect", DIALECTS)
@given(data=st.data())
def test_random_bytes_never_raise_and_any_split(dialect: str, data: st.DataObject) -> None:
    assert_split_invariant(dialect, *data.draw(body_and_pieces(st.binary(max_size=300))))


# json dialect


@PROFILE
@given(tokenized(st.one_of(st.sampled_from(JSON_TEXTS), mutated_text(JSON_TEXTS, JSON_TOKENS))))
def test_json_any_tokenization(case: tuple[str, list[bytes]]) -> None:
    assert_tokenization_invariant("json", *case)


@PROFILE
@given(
    st.one_of(token_soup(JSON_TOKENS), mutated_text(JSON_TEXTS, JSON_TOKENS)).flatmap(
        lambda text: st.tuples(st.just(text), text_cuts(text))
    )
)
def test_json_text_any_split(case: tuple[str, list[str]]) -> None:
    text, chunks = case
    assert normalized(decode_text("json", chunks)) == normalized(decode_text("json", [text]))


# ndjson dialects


@PROFILE
@pytest.mark.parametrize("dialect", ["ndjson", "ndjson-text"])
@given(data=st.data())
def test_ndjson_any_tokenization(dialect: str, data: st.DataObject) -> None:
    texts = st.one_of(st.sampled_from(NDJSON_TEXTS), mutated_text(NDJSON_TEXTS, NDJSON_TOKENS))
    assert_tokenization_invariant(dialect, *data.draw(tokenized(texts)))


@PROFILE
@pytest.mark.parametrize("dialect", ["ndjson", "ndjson-text"])
@given(data=st.data())
def test_ndjson_text_any_split(dialect: str, data: st.DataObject) -> None:
    texts = st.one_of(token_soup(NDJSON_TOKENS), mutated_text(NDJSON_TEXTS, NDJSON_TOKENS))
    text = data.draw(texts)
    chunks = data.draw(text_cuts(text))
    assert normalized(decode_text(dialect, chunks)) == normalized(decode_text(dialect, [text]))


@PROFILE
@given(ASTRAL_TEXT.flatmap(lambda text: st.tuples(st.just(text), text_cuts(utf16_units(text)))))
def test_ndjson_text_chunks_cut_between_utf16_halves(case: tuple[str, list[str]]) -> None:
    text, pieces_ = case
    records = [{"type": "tool", "id": "t", "tool": "create_file", "data": {"path": "/u", "content_b64": "s"}}]
    records += [{"type": "bs64_start", "bs64_id": "s"}]
    records += [{"type": "bs64_chunk", "bs64_id": "s", "seq": i, "data": p} for i, p in enumerate(pieces_)]
    records += [{"type": "bs64_end", "bs64_id": "s", "hash": None}, {"type": "done"}]
    reply = "".join(json.dumps(record) + "\n" for record in records)
    events = decode_pieces("ndjson-text", [sse({"choices": [{"index": 0, "delta": {"content": reply}}]})])
    assert [e.arguments for e in events if isinstance(e, ToolCallReady)] == [{"path": "/u", "content": text}]


def test_every_body_fed_one_byte_at_a_time() -> None:
    for dialect, sources in (("native", NATIVE), *DIALECT_BODIES.items()):
        for body in sources:
            assert_split_invariant(dialect, body, [body[i : i + 1] for i in range(len(body))])


@pytest.mark.parametrize("cut", [16, 24, 40])
def test_done_first_ends_the_stream_whatever_follows_in_the_same_piece(cut: int) -> None:
    """`[DONE]` is judged on the events before it, not on a malformed one that shares its piece."""
    chunk = b'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\r\n\r\n'
    body = b"data: [DONE]\n\ndata: {\n\r\n\r\n" + chunk + b"data: [DONE]\r\n\r\n"
    assert_split_invariant("native", body, [body[:cut], body[cut:]])
