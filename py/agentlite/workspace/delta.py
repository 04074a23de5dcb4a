"""Binary deltas: a new content as COPY ranges of a base plus INSERTed bytes.

The encoder trims the common prefix and suffix, then walks the changed middle line by line, copying runs
of lines found in the base (preferring the run that continues the previous copy) and inserting the rest.
A one-line edit of a 1 MB file gives a delta of a few dozen bytes; decoding is slicing and one join.

Format: a sequence of ops, each a tag byte then unsigned LEB128 varints:
`C offset length` copies base[offset:offset+length]; `I length bytes` inserts the bytes.
"""

from __future__ import annotations

import bisect
import itertools
import sys

from agentlite.workspace.workspace_errors import CorruptData

MIN_COPY = 24  # a copy of fewer bytes that does not continue the previous copy is inserted instead


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix, by halving slice comparisons (memcmp speed)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common suffix, at most `limit`."""
    low, high = 0, min(len(a), len(b), limit)
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid : len(a) - low] == b[len(b) - mid : len(b) - low]:
            low = mid
        else:
            high = mid - 1
    return low


def encode(base: bytes, new: bytes) -> bytes:
    out = bytearray()
    prefix = common_prefix(base, new)
    suffix = common_suffix(base, new, min(len(base), len(new)) - prefix)
    if prefix:
        _copy(out, 0, prefix)
    _encode_middle(out, base, prefix, len(base) - suffix, new[prefix : len(new) - suffix])
    if suffix:
        _copy(out, len(base) - suffix, suffix)
    return bytes(out)


def _match_length(new: bytes, at: int, base: bytes, base_at: int, limit: int) -> int:
    """How many bytes from new[at:] equal base[base_at:], at most `limit` (halving, memcmp speed)."""
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if base.startswith(new[at + low : at + mid], base_at + low):
            low = mid
        else:
            high = mid - 1
    return low


def _encode_middle(out: bytearray, base: bytes, start: int, stop: int, new: bytes) -> None:
    if not new:
        return
    old_lines = base[start:stop].splitlines(keepends=True)
    if not old_lines:
        _insert(out, new)
        return
    offsets = list(itertools.accumulate(map(len, old_lines), initial=start))
    # the first line number of each distinct line (built in C: later pairs win, so go backwards)
    index = dict(zip(reversed(old_lines), range(len(old_lines) - 1, -1, -1), strict=True))
    new_lines = new.splitlines(keepends=True)
    new_offsets = list(itertools.accumulate(map(len, new_lines), initial=0))
    pending_from = 0  # new offset where not yet encoded bytes start
    expected = -1
    i = 0
    while i < len(new_lines):
        line = new_lines[i]
        j = expected if 0 <= expected < len(old_lines) and old_lines[expected] == line else index.get(line)
        if j is None:
            i += 1
            continue
        length = _match_length(
            new, new_offsets[i], base, offsets[j], min(len(new) - new_offsets[i], stop - offsets[j])
        )
        run = bisect.bisect_right(new_offsets, new_offsets[i] + length) - 1 - i
        size = new_offsets[i + run] - new_offsets[i]
        if size >= MIN_COPY or j == expected:
            if pending_from < new_offsets[i]:
                _insert(out, new[pending_from : new_offsets[i]])
            _copy(out, offsets[j], size)
            pending_from = new_offsets[i + run]
            expected = j + run
        i += run
    if pending_from < len(new):
        _insert(out, new[pending_from:])


Op = tuple[int, int, bytes]  # (base offset or -1 for an insert, length, inserted bytes)


def parse(delta: bytes, base_size: int) -> list[Op]:
    ops: list[Op] = []
    pos = 0
    try:
        while pos < len(delta):
            tag = delta[pos]
            pos += 1
            if tag == 0x43:  # "C"
                offset, pos = _read_varint(delta, pos)
                length, pos = _read_varint(delta, pos)
                if offset + length > base_size:
                    raise CorruptData("a stored delta copies past the end of its base")
                ops.append((offset, length, b""))
            elif tag == 0x49:  # "I"
                length, pos = _read_varint(delta, pos)
                if pos + length > len(delta):
                    raise CorruptData("a stored delta is truncated")
                ops.append((-1, length, delta[pos : pos + length]))
                pos += length
            else:
                raise CorruptData(f"a stored delta has an unknown op {tag:#x}")
    except IndexError as exc:
        raise CorruptData("a stored delta is truncated") from exc
    return ops


def decode(base: bytes, delta: bytes) -> bytes:
    return b"".join(
        data if offset < 0 else base[offset : offset + length]
        for offset, length, data in parse(delta, len(base))
    )


def rebase_edit(previous_delta: bytes, previous: bytes, new: bytes, limit: int = 4096) -> bytes | None:
    """The delta base -> `new` built from the delta base -> `previous`, when `new` is a small edit of it.

    Only the changed middle is inserted; the unchanged head and tail reuse the previous delta's ops, so the
    cost follows the size of the edit, not of the file. None when the edit is larger than `limit`.
    """
    prefix = common_prefix(previous, new)
    suffix = common_suffix(previous, new, min(len(previous), len(new)) - prefix)
    middle = new[prefix : len(new) - suffix]
    if len(middle) > limit:
        return None
    ops = parse(previous_delta, sys.maxsize)
    out = bytearray()
    _emit(out, _slice(ops, 0, prefix))
    if middle:
        _insert(out, middle)
    _emit(out, _slice(ops, len(previous) - suffix, len(previous)))
    return bytes(out)


def _slice(ops: list[Op], start: int, stop: int) -> list[Op]:
    """The ops producing bytes [start, stop) of their output."""
    result: list[Op] = []
    position = 0
    for offset, length, data in ops:
        low, high = max(start, position), min(stop, position + length)
        if low < high:
            cut = low - position
            if offset < 0:
                result.append((-1, high - low, data[cut : cut + high - low]))
            else:
                result.append((offset + cut, high - low, b""))
        position += length
        if position >= stop:
            break
    return result


def _emit(out: bytearray, ops: list[Op]) -> None:
    for offset, length, data in ops:
        if offset < 0:
            _insert(out, data)
        else:
            _copy(out, offset, length)


def _copy(out: bytearray, offset: int, length: int) -> None:
    out.append(0x43)
    _write_varint(out, offset)
    _write_varint(out, length)


def _insert(out: bytearray, data: bytes) -> None:
    out.append(0x49)
    _write_varint(out, len(data))
    out += data


def _write_varint(out: bytearray, value: int) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
