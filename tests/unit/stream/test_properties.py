"""Properties of every decoder: any split of the input gives the same events, and no input makes a
decoder raise. Counts come from the hypothesis profile (conftest.py).

Splitting the HTTP body only changes how SSE framing arrives; the content text is chunked by the
provider's deltas. So the dialect properties vary both: the content is cut into random deltas, and the
resulting body into random network chunks.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentlite.events import Event
from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.sse import SseDecoder, SseEvent

from .properties import PROFILE, mutated, mutated_text, pieces, text_cuts, token_soup
from .samples import JSON_TEXTS, JSON_TOKENS, NDJSON_TEXTS, NDJSON_TOKENS, bodies
from .support import TOOLS, content_chunks, normalized

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


@PROFILE
@given(body_and_pieces(st.one_of(st.sampled_from(NATIVE), mutated(NATIVE))))
def test_sse_events_do_not_depend_on_the_split(case: tuple[bytes, list[bytes]]) -> None:
    body, chunks = case
    text = body.decode("utf-8", "replace")

    def run(parts: list[str]) -> list[SseEvent]:
        decoder = SseDecoder()
        events: list[SseEvent] = []
        for part in parts:
            events += decoder.feed(part)
        return events + decoder.close()

    parts, start = [], 0
    for chunk in chunks:
        parts.append(text[start : start + len(chunk)])
        start += len(chunk)
    parts.append(text[start:])
    assert run(parts) == run([text])


# native (the OpenAI chunk decoder and tool-call accumulation)


@PROFILE
@given(body_and_pieces(st.sampled_from(NATIVE)))
def test_native_transcripts_any_split(case: tuple[bytes, list[bytes]]) -> None:
    assert_split_invariant("native", *case)


@PROFILE
@given(body_and_pieces(mutated(NATIVE)))
def test_native_mutations_never_raise_and_any_split(case: tuple[bytes, list[bytes]]) -> None:
    assert_split_invariant("native", *case)


@PROFILE
@given(st.binary(max_size=300), st.sampled_from(["native", "json", "ndjson", "ndjson-text"]))
def test_random_bytes_never_raise(data: bytes, dialect: str) -> None:
    decode_pieces(dialect, [data[: len(data) // 2], data[len(data) // 2 :]])


# json dialect


@PROFILE
@given(
    tokenized(st.one_of(st.sampled_from(JSON_TEXTS), mutated_text(JSON_TEXTS, JSON_TOKENS))),
    st.sampled_from(["json", "json", "json", "native"]),  # native: prose and inline thinking only
)
def test_json_any_tokenization(case: tuple[str, list[bytes]], dialect: str) -> None:
    assert_tokenization_invariant(dialect, *case)


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
@given(
    tokenized(st.one_of(st.sampled_from(NDJSON_TEXTS), mutated_text(NDJSON_TEXTS, NDJSON_TOKENS))),
    st.sampled_from(["ndjson", "ndjson-text"]),
)
def test_ndjson_any_tokenization(case: tuple[str, list[bytes]], dialect: str) -> None:
    assert_tokenization_invariant(dialect, *case)


@PROFILE
@given(
    st.one_of(token_soup(NDJSON_TOKENS), mutated_text(NDJSON_TEXTS, NDJSON_TOKENS)).flatmap(
        lambda text: st.tuples(st.just(text), text_cuts(text))
    ),
    st.sampled_from(["ndjson", "ndjson-text"]),
)
def test_ndjson_text_any_split(case: tuple[str, list[str]], dialect: str) -> None:
    text, chunks = case
    assert normalized(decode_text(dialect, chunks)) == normalized(decode_text(dialect, [text]))


def test_every_body_fed_one_byte_at_a_time() -> None:
    for dialect, sources in (("native", NATIVE), *DIALECT_BODIES.items()):
        for body in sources:
            assert_split_invariant(dialect, body, [body[i : i + 1] for i in range(len(body))])
