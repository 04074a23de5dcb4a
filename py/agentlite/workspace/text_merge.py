"""Three-way merge of lines: the user's typing and the agent's write, both made from the same text.

The editor saves what the user typed together with the text it started from (`base`). When the file
changed since (the agent wrote it while the user typed), both sets of changes are applied to `base`
if they touch different lines; otherwise there is no merge (None) and the caller decides.
"""

from __future__ import annotations

from difflib import SequenceMatcher

Change = tuple[int, int, list[str]]  # base lines [start, end) become these lines


def _changes(base: list[str], other: list[str]) -> list[Change]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _touch(a: Change, b: Change) -> bool:
    """Two changes overlap, or both insert at the same place, or one inserts at the other's edge."""
    (a1, a2, _), (b1, b2, _) = a, b
    return (a1 < b2 and b1 < a2) or a1 == b1 or (a1 == a2 and b1 <= a1 <= b2) or (b1 == b2 and a1 <= b1 <= a2)


def merge(base: str, ours: str, theirs: str) -> str | None:
    """`base` with the changes of both `ours` and `theirs`; None when they change the same lines
    differently. The same change made on both sides is applied once."""
    lines = base.splitlines(keepends=True)
    mine = _changes(lines, ours.splitlines(keepends=True))
    other = _changes(lines, theirs.splitlines(keepends=True))
    both = [c for c in other if c not in mine]
    if any(_touch(a, b) for a in mine for b in both):
        return None
    merged = lines[:]
    for start, end, new in sorted([*mine, *both], key=lambda c: (c[0], c[1]), reverse=True):
        merged[start:end] = new
    return "".join(merged)
