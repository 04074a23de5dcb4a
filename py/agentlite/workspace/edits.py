"""Search-and-replace edit blocks: replace a unique `originalCode` with `newCode`.

Blocks apply one after another, each to the text the previous ones produced. Each reports `applied`,
`not_found` or `ambiguous` (with the line numbers of the candidates); applied blocks are kept even when
others fail, and a call where nothing applied changes nothing. Matching is exact first; then with CRLF
line ends; then line by line ignoring trailing whitespace; then ignoring indentation (the new code is
re-indented by the difference), each only when it finds exactly one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from agentlite.workspace.workspace_errors import InvalidArgument

Status = Literal["applied", "not_found", "ambiguous"]
MAX_CANDIDATES = 10


@dataclass(frozen=True)
class EditBlock:
    original: str
    new: str

    @classmethod
    def coerce(cls, value: EditBlock | Mapping[str, Any] | Sequence[str]) -> EditBlock:
        if isinstance(value, EditBlock):
            return value
        if isinstance(value, Mapping):
            original = value.get("originalCode", value.get("original_code", value.get("original")))
            new = value.get("newCode", value.get("new_code", value.get("new")))
        elif isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
            original, new = value
        else:
            raise InvalidArgument("an edit block needs originalCode and newCode")
        if not isinstance(original, str) or not isinstance(new, str):
            raise InvalidArgument("an edit block needs originalCode and newCode as strings")
        return cls(original, new)


@dataclass(frozen=True)
class BlockResult:
    index: int
    status: Status
    message: str
    line: int | None = None  # where the replacement starts (applied)
    candidates: tuple[int, ...] = ()  # lines of the matches (ambiguous) or of look-alikes (not_found)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["candidates"] = list(self.candidates)
        return data


def apply_blocks(text: str, blocks: Iterable[EditBlock]) -> tuple[str, list[BlockResult]]:
    results: list[BlockResult] = []
    for index, block in enumerate(blocks):
        text, result = apply_one(text, block, index)
        results.append(result)
    return text, results


def apply_one(text: str, block: EditBlock, index: int = 0) -> tuple[str, BlockResult]:
    if block.original == "":
        if text == "":
            return block.new, BlockResult(index, "applied", "the empty file now holds newCode", 1)
        return text, BlockResult(
            index, "not_found", "originalCode is empty; quote the text to replace (or rewrite the whole file)"
        )
    attempts: list[tuple[str, Callable[[str, EditBlock], list[tuple[int, int, str]]]]] = [
        ("", _exact),
        (" (with CRLF line ends)", _crlf),
        (" (ignoring trailing whitespace)", _trailing),
        (" (ignoring indentation)", _indentation),
    ]
    for how, matcher in attempts:
        spans = matcher(text, block)
        if len(spans) == 1:
            start, stop, replacement = spans[0]
            line = text.count("\n", 0, start) + 1
            message = f"replaced at line {line}{how}"
            return text[:start] + replacement + text[stop:], BlockResult(index, "applied", message, line)
        if len(spans) > 1:
            lines = tuple(text.count("\n", 0, s) + 1 for s, _e, _r in spans[:MAX_CANDIDATES])
            shown = ", ".join(map(str, lines)) + (", ..." if len(spans) > MAX_CANDIDATES else "")
            message = (
                f"originalCode matches {len(spans)} places{how} (lines {shown}); "
                "include more surrounding lines so it matches exactly one"
            )
            return text, BlockResult(index, "ambiguous", message, None, lines)
    near = _look_alikes(text, block.original)
    hint = f" Lines that look like its first line: {', '.join(map(str, near))}." if near else ""
    message = f"originalCode was not found.{hint} Read the file again and copy the text exactly."
    return text, BlockResult(index, "not_found", message, None, near)


def _positions(text: str, needle: str) -> list[int]:
    found: list[int] = []
    start = text.find(needle)
    while start >= 0 and len(found) <= MAX_CANDIDATES:
        found.append(start)
        start = text.find(needle, start + 1)
    return found


def _exact(text: str, block: EditBlock) -> list[tuple[int, int, str]]:
    return [(p, p + len(block.original), block.new) for p in _positions(text, block.original)]


def _crlf(text: str, block: EditBlock) -> list[tuple[int, int, str]]:
    if "\r\n" not in text or "\r\n" in block.original or "\n" not in block.original:
        return []
    original = block.original.replace("\n", "\r\n")
    new = block.new.replace("\r\n", "\n").replace("\n", "\r\n")
    return [(p, p + len(original), new) for p in _positions(text, original)]


def _line_spans(text: str) -> tuple[list[str], list[int]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return lines, starts


def _window_matches(text: str, original: str, norm: Callable[[str], str]) -> list[tuple[int, int]]:
    """(first line, line count) of every window of lines equal to `original` under `norm`."""
    wanted = [norm(line) for line in original.strip("\n").split("\n")]
    if not any(wanted):
        return []
    lines, _starts = _line_spans(text)
    found: list[tuple[int, int]] = []
    for number in range(len(lines) - len(wanted) + 1):
        if norm(lines[number]) == wanted[0] and all(
            norm(lines[number + k]) == wanted[k] for k in range(1, len(wanted))
        ):
            found.append((number, len(wanted)))
            if len(found) > MAX_CANDIDATES:
                break
    return found


def _replace_lines(text: str, first: int, count: int, new: str) -> tuple[int, int, str]:
    """The span of `count` whole lines from `first` (without the last line end) and its replacement."""
    lines, starts = _line_spans(text)
    start = starts[first]
    stop = starts[first + count - 1] + len(lines[first + count - 1])
    replacement = new.strip("\n")
    if not replacement and stop < len(text):
        stop += 1  # removing whole lines removes their line end too
    return start, stop, replacement


def _trailing(text: str, block: EditBlock) -> list[tuple[int, int, str]]:
    windows = _window_matches(text, block.original, lambda line: line.rstrip())
    return [_replace_lines(text, first, count, block.new) for first, count in windows]


def _indentation(text: str, block: EditBlock) -> list[tuple[int, int, str]]:
    windows = _window_matches(text, block.original, lambda line: line.strip())
    lines, _starts = _line_spans(text)
    return [_replace_lines(text, first, count, _reindent(block, lines[first])) for first, count in windows]


def _reindent(block: EditBlock, actual_first: str) -> str:
    """newCode with the indentation the file uses where originalCode's first line was found."""
    original_first = next((line for line in block.original.split("\n") if line.strip()), "")
    have = original_first[: len(original_first) - len(original_first.lstrip())]
    want = actual_first[: len(actual_first) - len(actual_first.lstrip())]
    out = []
    for line in block.new.strip("\n").split("\n"):
        if line.strip() and line.startswith(have):
            line = want + line[len(have) :]
        elif line.strip() and not have:
            line = want + line
        out.append(line)
    return "\n".join(out)


def _look_alikes(text: str, original: str) -> tuple[int, ...]:
    first = next((line.strip() for line in original.split("\n") if line.strip()), "")
    if not first:
        return ()
    lines, _starts = _line_spans(text)
    found = [n + 1 for n, line in enumerate(lines) if first in line]
    return tuple(found[:5])
