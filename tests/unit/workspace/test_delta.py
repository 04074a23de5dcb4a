"""Deltas round-trip for any pair of contents and stay small for small changes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.workspace import CorruptData, delta
from tests.unit.workspace.helpers import PROFILE

lines = st.lists(
    st.sampled_from([b"alpha\n", b"beta\n", b"gamma gamma gamma gamma gamma\n", b"\n", b"x"]), max_size=40
)


@settings(PROFILE)
@given(lines, lines)
def test_round_trip(old: list[bytes], new: list[bytes]) -> None:
    base, target = b"".join(old), b"".join(new)
    assert delta.decode(base, delta.encode(base, target)) == target


@settings(PROFILE)
@given(st.binary(max_size=300), st.binary(max_size=300))
def test_round_trip_binary(base: bytes, target: bytes) -> None:
    assert delta.decode(base, delta.encode(base, target)) == target


@settings(PROFILE)
@given(lines, lines, lines)
def test_rebased_edit_round_trip(
    base_lines: list[bytes], previous_lines: list[bytes], new_lines: list[bytes]
) -> None:
    base, previous, new = b"".join(base_lines), b"".join(previous_lines), b"".join(new_lines)
    rebased = delta.rebase_edit(delta.encode(base, previous), previous, new, limit=10**6)
    assert rebased is not None
    assert delta.decode(base, rebased) == new


def test_rebased_edit_declines_large_edits() -> None:
    assert delta.rebase_edit(delta.encode(b"a", b"b"), b"b", b"x" * 5000) is None


def test_one_line_change_of_a_large_file_is_tiny() -> None:
    rnd = random.Random(7)
    text = [f"line {i} {rnd.random()}\n".encode() for i in range(20000)]
    base = b"".join(text)
    text[12345] = b"changed\n"
    text.insert(40, b"inserted line\n")
    del text[19000]
    new = b"".join(text)
    encoded = delta.encode(base, new)
    assert delta.decode(base, encoded) == new
    assert len(encoded) < 200


def test_moved_block_is_copied_not_inserted() -> None:
    block = b"".join(f"some long line of code number {i}\n".encode() for i in range(200))
    base = b"head\n" + block + b"tail\n"
    new = b"tail\n" + block + b"head\n"
    encoded = delta.encode(base, new)
    assert delta.decode(base, encoded) == new
    assert len(encoded) < 100


def test_prefix_and_suffix_helpers() -> None:
    assert delta.common_prefix(b"abcdef", b"abcxyz") == 3
    assert delta.common_prefix(b"", b"abc") == 0
    assert delta.common_suffix(b"xxabc", b"yabc", 10) == 3
    assert delta.common_suffix(b"abc", b"abc", 1) == 1


@pytest.mark.parametrize("bad", [b"Z", b"C\x05\x05", b"I\x09ab", b"C\x80"])
def test_corrupt_deltas_are_reported(bad: bytes) -> None:
    with pytest.raises(CorruptData):
        delta.decode(b"abc", bad)
