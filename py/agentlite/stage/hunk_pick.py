"""Taking some hunks of a change and not others: the text a file has when only the chosen hunks are kept."""

from __future__ import annotations

from collections.abc import Collection

from agentlite.workspace.diffs import Hunk, hunks, split_lines


def with_hunks(old: str, new: str, chosen: Collection[int]) -> str:
    """`old` with the hunks of `old`→`new` whose index is in `chosen` applied (all of them gives `new`)."""
    lines = split_lines(old)
    for hunk in reversed(hunks(old, new)):
        if hunk.index in chosen:
            start = _start(hunk)
            lines[start : start + hunk.old_count] = list(hunk.new_lines)
    return "".join(lines)


def _start(hunk: Hunk) -> int:
    return hunk.old_start - 1 if hunk.old_count else hunk.old_start


def counts(old: str, new: str) -> tuple[int, int]:
    """Lines added and removed from `old` to `new`."""
    added = removed = 0
    for hunk in hunks(old, new, context=0):
        added += hunk.new_count
        removed += hunk.old_count
    return added, removed
