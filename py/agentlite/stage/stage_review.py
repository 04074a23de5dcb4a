"""The review's view of a stage: a row per file, and one file's hunks, as the page shows them."""

from __future__ import annotations

from typing import Any, Protocol

from agentlite.stage.hunk_pick import counts
from agentlite.stage.stage_changes import FileChange
from agentlite.stage.stage_state import StageState
from agentlite.workspace import Workspace, diffs, paths, text_merge
from agentlite.workspace.content import decode_text


class Stage(Protocol):
    """What the review reads of a stage (agentlite.stage.stage.Stage)."""

    base: Workspace
    state: StageState

    async def contents(self, change: FileChange) -> tuple[bytes | None, bytes | None]: ...

    async def start_text(self, change: FileChange) -> str | None: ...


def is_instructions(path: str) -> bool:
    """An AGENTS.md or a skill's file: instructions the model follows, never kept unseen."""
    return paths.is_instructions(path) or paths.is_skill(path)


async def review_rows(stage: Stage, changes: list[FileChange]) -> list[dict[str, Any]]:
    rows = [await _row(stage, change) for change in changes if not change.hidden]
    pending = {change.path for change in changes}
    for path, decided in sorted(stage.state.decided.items()):
        if path not in pending:
            rows.append(_decided_row(path, decided))
    return sorted(rows, key=lambda row: row["path"])


async def _row(stage: Stage, change: FileChange) -> dict[str, Any]:
    before, after = await stage.contents(change)
    old, new = _text(before), _text(after)
    added, removed = counts(old or "", new or "") if old is not None or new is not None else (0, 0)
    return {
        "path": change.path,
        "change": change.change,
        "source": change.source,
        "state": "conflict" if change.conflict else "pending",
        "added": added,
        "removed": removed,
        "instructions": is_instructions(change.path) or is_instructions(change.before_path),
        "binary": change.binary,
    }


def _decided_row(path: str, decided: dict[str, Any]) -> dict[str, Any]:
    return {
        "path": path,
        "change": decided.get("change", "edited"),
        "source": decided.get("source"),
        "state": decided.get("state", "kept"),
        "added": 0,
        "removed": 0,
        "instructions": is_instructions(path),
        "binary": False,
    }


async def file_view(stage: Stage, change: FileChange | None, path: str) -> dict[str, Any]:
    """One file of the review: both texts, its hunks (pending ones numbered for keep and drop, decided
    ones as they were decided) and, in a conflict, the three texts a merge starts from."""
    decided = [{"index": None, **hunk} for hunk in stage.state.hunks.get(path, [])]
    if change is None:
        row = _decided_row(path, stage.state.decided.get(path, {}))
        text = await stage.base.read_text(path) if await stage.base.exists(path) else None
        return {**row, "before": text, "after": text, "hunks": decided, "conflict": None}
    before, after = await stage.contents(change)
    old, new = _text(before), _text(after)
    pending = (
        [
            {
                "index": h.index,
                "state": "pending",
                "header": h.header,
                "lines": [line.rstrip("\n") for line in h.lines],
            }
            for h in diffs.hunks(old or "", new or "")
        ]
        if not change.binary
        else []
    )
    view = {
        **await _row(stage, change),
        "before": old,
        "after": new,
        "hunks": decided + pending,
        "conflict": None,
    }
    if change.conflict:
        start = await stage.start_text(change)
        merged = text_merge.merge(start or "", new, old) if new is not None and old is not None else None
        view["conflict"] = {"base": start, "theirs": old, "ours": new, "merged": merged}
    return view


def _text(data: bytes | None) -> str | None:
    return None if data is None else decode_text(data)
