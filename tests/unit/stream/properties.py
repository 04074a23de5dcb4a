"""Strategies of the property tests: splits of a body into chunks, and mutations of valid transcripts."""

from __future__ import annotations

import itertools
import os

from hypothesis import settings
from hypothesis import strategies as st

PROFILE = settings.get_profile("fuzz" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "stream")

INTERESTING = [
    b"\n",
    b"\r\n",
    b"\r",
    b"\n\n",
    b"data: ",
    b"data: [DONE]\n\n",
    b": ping\n\n",
    b"error: boom\n\n",
    b"event: error\n",
    b"{",
    b"}",
    b"]",
    b'"',
    b"\\",
    b",",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xef\xbb\xbf",
    b"<think>",
    b"</think>",
    b"```json\n",
    b"```\n",
    b'{"tool":',
    b'{"type":"bs64_chunk","bs64_id":"s1","seq":0,"data_b64":"YQ"}\n',
    b'{"type":"bs64_end","bs64_id":"s2","hash":null}\n',
    b'{"error":{"message":"x","code":429}}',
    b'"finish_reason":"stop"',
    b'"tool_calls":[{"index":0,"function":{"arguments":"{"}}]',
]


BYTE_WINDOW = 2048  # at most this many bytes are fed one at a time: a whole large body would be slow


@st.composite
def pieces(draw: st.DrawFn, body: bytes) -> list[bytes]:
    """`body` cut into chunks: one byte each over a window (all of a small body), or at random points
    (repeated points give empty chunks)."""
    if draw(st.integers(0, 9)) == 0:
        start = draw(st.integers(0, max(0, len(body) - BYTE_WINDOW)))
        end = min(len(body), start + BYTE_WINDOW)
        return [body[:start], *(body[i : i + 1] for i in range(start, end)), body[end:]]
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=24)))
    edges = [0, *cuts, len(body)]
    return [body[a:b] for a, b in itertools.pairwise(edges)]


@st.composite
def mutated(draw: st.DrawFn, bodies: list[bytes]) -> bytes:
    """A valid transcript with a few random edits: deletions, insertions, duplications, truncation."""
    body = bytearray(draw(st.sampled_from(bodies)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "token", "duplicate", "flip", "truncate"]))
        i = draw(st.integers(0, len(body)))
        j = draw(st.integers(i, min(len(body), i + 24)))
        if op == "delete":
            del body[i:j]
        elif op == "insert":
            body[i:i] = draw(st.binary(max_size=8))
        elif op == "token":
            body[i:i] = draw(st.sampled_from(INTERESTING))
        elif op == "duplicate":
            body[i:i] = body[i:j]
        elif op == "flip" and i < len(body):
            body[i] = draw(st.integers(0, 255))
        elif op == "truncate":
            del body[i:]
    return bytes(body)


@st.composite
def mutated_text(draw: st.DrawFn, texts: list[str], tokens: list[str]) -> str:
    """A valid reply with a few random edits, from protocol fragments and random characters."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "token", "duplicate", "truncate"]))
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 24)))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.text(max_size=4)) + text[i:]
        elif op == "token":
            text = text[:i] + draw(st.sampled_from(tokens)) + text[i:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i]
    return text


@st.composite
def text_cuts(draw: st.DrawFn, text: str) -> list[str]:
    """`text` cut into pieces: one character each, or at random points (empty pieces included)."""
    if draw(st.integers(0, 9)) == 0:
        return list(text)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=32)))
    edges = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


def token_soup(tokens: list[str]) -> st.SearchStrategy[str]:
    """Text assembled from protocol fragments and random characters."""
    return st.lists(st.one_of(st.sampled_from(tokens), st.text(max_size=6)), max_size=40).map("".join)
