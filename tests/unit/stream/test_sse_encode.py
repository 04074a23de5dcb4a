"""The SSE encoder against the decoder: whatever the endpoints we play write, the reader reads back."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from agentlite.stream.sse import SseDecoder
from agentlite.stream.sse_encode import DONE, sse_body, sse_event, sse_events

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(st.characters(exclude_categories=["Cs"])),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
PAYLOADS = st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=4)


def read_back(body: bytes) -> list[str | None]:
    decoder = SseDecoder()
    events = decoder.feed(body.decode()) + decoder.close()
    return [event.data for event in events]


@given(st.lists(PAYLOADS, max_size=4), st.booleans())
def test_every_payload_reads_back_whole(payloads: list[dict[str, object]], ascii_only: bool) -> None:
    body = b"".join(sse_events(*payloads, ascii_only=ascii_only))
    data = read_back(body)
    assert [json.loads(d or "") for d in data[:-1]] == payloads
    assert data[-1] == "[DONE]"


def test_ascii_only_escapes_and_utf8_does_not() -> None:
    assert sse_event({"t": "é"}, ascii_only=True) == b'data: {"t": "\\u00e9"}\n\n'
    assert sse_event({"t": "é"}) == 'data: {"t": "é"}\n\n'.encode()


def test_strings_go_raw_and_a_cut_stream_has_no_done() -> None:
    assert sse_body({"a": 1}, "[DONE]") == b'data: {"a": 1}\n\n' + DONE
    assert sse_events({"a": 1}, done=False) == [b'data: {"a": 1}\n\n']
