"""Unified diffs and hunks between two texts, and reverting one hunk in a newer text.

difflib's matcher runs only on the part between the common leading and trailing lines (plus context), so a
one-line change of a large file is diffed in time proportional to the file, not its square.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agentlite.workspace.workspace_errors import Conflict

CONTEXT = 3


def split_lines(text: str) -> list[str]:
    """Lines with their line ends (`"a\\nb"` -> [`"a\\n"`, `"b"`])."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


@dataclass(frozen=True)
class Hunk:
    index: int
    old_start: int  # 1-based first line on each side (as in the @@ header)
    old_count: int
    new_start: int
    new_count: int
    old_lines: tuple[str, ...]  # the hunk's lines on the old side (context included), with line ends
    new_lines: tuple[str, ...]
    lines: tuple[str, ...]  # the body: " context", "-removed", "+added" (line ends kept)

    @property
    def header(self) -> str:
        return f"@@ -{_range(self.old_start, self.old_count)} +{_range(self.new_start, self.new_count)} @@"

    def text(self) -> str:
        return self.header + "\n" + "".join(_terminated(line) for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "header": self.header,
            "old_start": self.old_start,
            "old_count": self.old_count,
            "new_start": self.new_start,
            "new_count": self.new_count,
            "text": self.text(),
        }


def _range(start: int, count: int) -> str:
    return f"{start}" if count == 1 else f"{start},{count}"


def _terminated(line: str) -> str:
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _opcode_groups(a: list[str], b: list[str], context: int) -> list[list[tuple[str, int, int, int, int]]]:
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]:
        suffix += 1
    if prefix == len(a) == len(b):
        return []
    low = max(0, prefix - context)
    a_high, b_high = len(a) - max(0, suffix - context), len(b) - max(0, suffix - context)
    import difflib  # here: compiled from source on a first visit, not needed to start (docs/startup.md)

    matcher = difflib.SequenceMatcher(None, a[low:a_high], b[low:b_high], autojunk=False)
    return [
        [(tag, i1 + low, i2 + low, j1 + low, j2 + low) for tag, i1, i2, j1, j2 in group]
        for group in matcher.get_grouped_opcodes(context)
    ]


def hunks(old: str, new: str, context: int = CONTEXT) -> list[Hunk]:
    a, b = split_lines(old), split_lines(new)
    result: list[Hunk] = []
    for index, group in enumerate(_opcode_groups(a, b, context)):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        body: list[str] = []
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                body += [" " + line for line in a[a1:a2]]
                continue
            body += ["-" + line for line in a[a1:a2]]
            body += ["+" + line for line in b[b1:b2]]
        result.append(
            Hunk(
                index=index,
                old_start=i1 + 1 if i2 > i1 else i1,
                old_count=i2 - i1,
                new_start=j1 + 1 if j2 > j1 else j1,
                new_count=j2 - j1,
                old_lines=tuple(a[i1:i2]),
                new_lines=tuple(b[j1:j2]),
                lines=tuple(body),
            )
        )
    return result


def unified(old: str, new: str, old_name: str, new_name: str, context: int = CONTEXT) -> str:
    """A unified diff (empty when the texts are equal)."""
    parts = hunks(old, new, context)
    if not parts:
        return ""
    return f"--- {old_name}\n+++ {new_name}\n" + "".join(hunk.text() for hunk in parts)


def revert_hunk(current: str, hunk: Hunk) -> str:
    """`current` with `hunk` undone: its new side replaced by its old side, found near where it was."""
    lines = split_lines(current)
    block = list(hunk.new_lines)
    expected = max(0, hunk.new_start - 1 if hunk.new_count else hunk.new_start)
    place = _find_block(lines, block, expected)
    if place is None:
        raise Conflict(
            f"hunk {hunk.index} no longer applies: the lines it changed were edited since "
            f"({hunk.header}); revert the change whole with undo, or edit the file"
        )
    return "".join(lines[:place] + list(hunk.old_lines) + lines[place + len(block) :])


def _find_block(lines: list[str], block: list[str], expected: int) -> int | None:
    if not block:
        return min(expected, len(lines))
    places = [
        start
        for start in range(len(lines) - len(block) + 1)
        if lines[start] == block[0] and lines[start : start + len(block)] == block
    ]
    if not places:
        return None
    return min(places, key=lambda start: (abs(start - expected), start))
