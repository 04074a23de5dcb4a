"""Turns: which agent reply (or user edit) a change belongs to, and who made it.

Every mutating Workspace method takes keyword arguments `turn=` and `author=`, and the caller says
them: the tool loop passes the turn of the reply it runs, the page passes the user's own. That is the
only way a change is attributed, so a user edit arriving while the agent works can never land in the
agent's turn. Without `turn=` a change is a turn of its own (`auto-<commit number>`); without
`author=` it is the user's.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentlite.workspace.paths import check_label

DEFAULT_AUTHOR = "user"
DISK_AUTHOR = "disk"  # changes made outside the app to a folder it has open (`mirror`)


@dataclass(frozen=True)
class Attribution:
    """The turn one change is recorded in, and its author."""

    turn: str
    author: str


def attribution(turn: str | None, author: str | None, next_commit: int) -> Attribution:
    """The turn and author of one change: the arguments, else a fresh turn by the user."""
    return Attribution(
        check_label(turn if turn is not None else f"auto-{next_commit}", "turn id"),
        check_label(author if author is not None else DEFAULT_AUTHOR, "author", 64),
    )
