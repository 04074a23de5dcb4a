"""How much of a file an edit removes or rewrites: the measure behind "small edits run unasked".

An `edit_file` call is a list of search-and-replace blocks. Each block that matches the file replaces
its `originalCode` lines; the lines of `originalCode` that `newCode` does not keep (by a line diff) are
the lines the block removes or rewrites. A block that does not match the file will fail and changes
nothing, so it counts for nothing. An edit whose count passes both `LARGE_EDIT_LINES` and
`LARGE_EDIT_SHARE` of the file asks like an overwrite (SECURITY.md): a whole 2,000-line file replaced
by one line through `edit_file` is an overwrite in all but name.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

LARGE_EDIT_LINES = 20  # an edit that removes or rewrites at most this many lines never asks
LARGE_EDIT_SHARE = 0.2  # nor one that removes or rewrites at most this share of the file's lines
DIFF_CELLS = 4_000_000  # a line diff of blocks larger than this (lines x lines) counts every line


def edit_blocks(arguments: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (originalCode, newCode) blocks of canonical `edit_file` arguments, in order."""
    blocks = [(arguments.get("originalCode"), arguments.get("newCode"))]
    extra = arguments.get("edits")
    if isinstance(extra, list):
        blocks += [(b.get("originalCode"), b.get("newCode")) for b in extra if isinstance(b, dict)]
    return [(old, new if isinstance(new, str) else "") for old, new in blocks if isinstance(old, str) and old]


def lines_of(text: str) -> list[str]:
    return text.removesuffix("\n").split("\n") if text else []


def removed_lines(text: str, blocks: Iterable[tuple[str, str]]) -> int:
    """Lines of `text` that the matching blocks remove or rewrite (kept lines do not count)."""
    total = 0
    for old, new in blocks:
        if old not in text:
            continue
        before, after = lines_of(old), lines_of(new)
        if len(before) * max(len(after), 1) > DIFF_CELLS:
            total += len(before)
            continue
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        total += sum(
            i2 - i1 for tag, i1, i2, _j1, _j2 in matcher.get_opcodes() if tag in ("replace", "delete")
        )
    return total


def is_large_edit(text: str, blocks: Iterable[tuple[str, str]]) -> tuple[int, int] | None:
    """(lines removed or rewritten, lines of the file) when the edit is too large to run unasked."""
    count, size = removed_lines(text, blocks), len(lines_of(text))
    if count > LARGE_EDIT_LINES and count > LARGE_EDIT_SHARE * size:
        return count, size
    return None
