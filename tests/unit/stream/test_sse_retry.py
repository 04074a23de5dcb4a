"""The SSE decoder keeps the stream's reconnection time (`retry:`), which the MCP client resumes by,
across any split of the text; a value that is not all ASCII digits is ignored, as the spec says."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentlite.stream.sse import SseDecoder

STREAM = "id: e-1\nretry: 500\ndata: \n\nretry: x12\nretry: ١٢\ndata: {}\n\n"


def decode(pieces: list[str]) -> SseDecoder:
    decoder = SseDecoder()
    for piece in pieces:
        decoder.feed(piece)
    return decoder


@given(st.lists(st.integers(0, len(STREAM)), max_size=6))
def test_retry_is_kept_across_any_split(cuts: list[int]) -> None:
    points = sorted(set(cuts))
    pieces = [STREAM[a:b] for a, b in zip([0, *points], [*points, len(STREAM)], strict=True)]
    decoder = decode(pieces)
    assert decoder.retry == 500 and decoder.last_event_id == "e-1"


def test_no_retry_field_leaves_it_unset() -> None:
    assert decode(["data: x\n\n"]).retry is None
