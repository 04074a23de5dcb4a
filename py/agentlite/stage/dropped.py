"""Dropped proposals (docs/review.md, "Dropped proposals"): what the user dropped from a chat's stage,
kept for the file's history, so a proposal stays in sight whether it was kept or not.

One record per file and decision, in the `stage` store under `%dropped/<path>\\x00<time> <chat>`: `%`
never begins a chat's prefix (`stage_state.chat_prefix` escapes it), and one range scan lists a path's
records, oldest first. A record holds the diff the user decided on (the workspace's text against the
proposal, or the dropped hunks), so it reads the same after the stage and the workspace have moved on.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from agentlite.stage.layers import STAGE_STORE
from agentlite.workspace import diffs
from agentlite.workspace.content import decode_text
from agentlite.workspace.storage import StorageBackend

PREFIX = "%dropped/"
DIFF_CHARS = 200_000  # a record's diff is cut here (a huge generated file would fill the store)


@dataclass(frozen=True)
class DroppedProposal:
    path: str  # the file's path in the workspace (a move's old path): its history lists the record
    chat: str
    turn: str | None
    time: float  # seconds since the epoch
    change: str  # created | edited | deleted | moved, as the review listed it
    proposed_path: str  # where the proposal put the file (a move's new path)
    diff: str  # what was dropped, as a unified diff ("" for a binary file)
    hunks: int  # how many hunks were dropped; 0: the whole file

    def key(self) -> str:
        return f"{PREFIX}{self.path}\x00{self.time:017.6f} {self.chat}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: str | bytes) -> DroppedProposal:
        data = json.loads(raw)
        return cls(**{name: data.get(name) for name in cls.__dataclass_fields__})


def puts(proposals: list[DroppedProposal]) -> list[tuple[str, str, str]]:
    """The records of `proposals`, for the batch that saves the stage's state after the decision."""
    return [(STAGE_STORE, p.key(), json.dumps(p.to_dict(), separators=(",", ":"))) for p in proposals]


async def dropped_for(storage: StorageBackend, path: str) -> list[dict[str, Any]]:
    """Every proposal dropped for `path` in any chat, oldest first."""
    head = f"{PREFIX}{path}\x00"
    rows = await storage.scan(STAGE_STORE, head, f"{PREFIX}{path}\x01")
    found = []
    for _key, raw in rows:
        if isinstance(raw, str | bytes):
            found.append(DroppedProposal.from_json(raw).to_dict())
    return found


def whole_file_diff(path: str, source: str | None, before: bytes | None, after: bytes | None) -> str:
    """The dropped file against the workspace's (from `source` for a move); "" when either is binary."""
    old, new = _text(before), _text(after)
    if (old is None and before is not None) or (new is None and after is not None):
        return ""
    old_name = f"a{source or path}" if before is not None else "/dev/null"
    new_name = f"b{path}" if after is not None else "/dev/null"
    return _cut(diffs.unified(old or "", new or "", old_name, new_name))


def hunks_diff(path: str, hunks: list[dict[str, Any]]) -> str:
    """The dropped hunks of a file, as the review showed them (`header` and `lines`)."""
    body = "".join(f"{h['header']}\n" + "".join(f"{line}\n" for line in h["lines"]) for h in hunks)
    return _cut(f"--- a{path}\n+++ b{path}\n{body}") if body else ""


def _text(data: bytes | None) -> str | None:
    return None if data is None else decode_text(data)


def _cut(text: str) -> str:
    return text if len(text) <= DIFF_CHARS else text[:DIFF_CHARS] + "\n[... cut: the diff is longer]\n"
