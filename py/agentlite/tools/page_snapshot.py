"""The previewed page's snapshot as the model reads it (docs/preview.md, "Hands on the page").

The page's frame gives the accessibility tree as lines (`- role "name" [state] [ref=e12]: value`,
indented by depth); here they are cut to a budget with a note of what was cut, an action's effect
becomes the lines it removed and added, and the page's requests read as `METHOD url status`.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

EMPTY = "(the page shows nothing)"


def cut_snapshot(lines: Sequence[str], max_lines: int, max_chars: int) -> str:
    """The first whole lines within both budgets, and a note line naming how many were cut."""
    if not lines:
        return EMPTY
    kept: list[str] = []
    used = 0
    for line in lines[:max_lines]:
        used += len(line) + 1
        if used > max_chars:
            break
        kept.append(line)
    cut = len(lines) - len(kept)
    if cut:
        budget = f"the snapshot keeps {max_lines} lines, {max_chars} characters"
        kept.append(f"- note: {cut} more lines cut ({budget})")
    return "\n".join(kept)


def snapshot_diff(before: Sequence[str], after: Sequence[str], limit: int) -> list[str]:
    """The lines an action removed (`- `) and added (`+ `), in the tree's order, at most `limit`."""
    changed: list[str] = []
    matcher = difflib.SequenceMatcher(a=list(before), b=list(after), autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed.extend(f"- {line}" for line in before[a_start:a_end])
        changed.extend(f"+ {line}" for line in after[b_start:b_end])
    if len(changed) > limit:
        return [*changed[:limit], f"({len(changed) - limit} more changed lines cut)"]
    return changed


def requests_text(requests: Sequence[Any]) -> list[str]:
    """One line a request: method, URL and status (0: the preview refused it or it failed)."""
    lines = []
    for request in requests:
        if not isinstance(request, dict):
            continue
        status = request.get("status")
        shown = str(status) if isinstance(status, int) and status > 0 else "(failed or refused)"
        lines.append(f"{request.get('method') or 'GET'} {request.get('url') or ''} {shown}")
    return lines
