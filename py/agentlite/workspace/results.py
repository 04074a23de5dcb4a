"""What mutations return: the committed change, and the per-block outcome of an edit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentlite.workspace.change_plan import Skipped
from agentlite.workspace.edits import BlockResult
from agentlite.workspace.records import Version


@dataclass(frozen=True)
class Change:
    """The result of a mutation: the commit (None when nothing changed) and its versions."""

    commit: int | None
    turn: str
    author: str
    versions: list[Version] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)  # conflicts left out (undo_turn, restore ...)

    @property
    def paths(self) -> list[str]:
        return sorted({p for v in self.versions for p in (v.path, v.source) if p})

    def to_dict(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "turn": self.turn,
            "author": self.author,
            "paths": self.paths,
            "versions": [v.to_dict() for v in self.versions],
            "conflicts": [s.to_dict() for s in self.skipped],
        }


@dataclass(frozen=True)
class EditResult:
    path: str
    blocks: list[BlockResult]
    change: Change | None
    diff: str = ""

    @property
    def applied(self) -> int:
        return sum(1 for block in self.blocks if block.status == "applied")

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "applied": self.applied,
            "blocks": [b.to_dict() for b in self.blocks],
            "version": self.change.versions[0].version if self.change and self.change.versions else None,
            "diff": self.diff,
        }
