"""Turns: which agent reply (or user edit) a change belongs to, and who made it.

Every mutating Workspace method takes keyword arguments `turn=` and `author=`. When they are left out,
the current turn context applies:

    with workspace.turn("t-12", author="agent"):
        await workspace.write("/a.py", text)     # recorded in turn t-12 by the agent
        await workspace.edit("/b.py", old, new)  # same turn

The context is a ContextVar, so it follows the asyncio task that set it: a user edit arriving from the
page in another task while the agent works is NOT counted in the agent's turn. Without an argument and
without a context, each call is a turn of its own (`auto-<commit number>`), made by "user".
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from agentlite.workspace.paths import check_label

DEFAULT_AUTHOR = "user"


@dataclass(frozen=True)
class TurnContext:
    turn: str
    author: str


_current: ContextVar[TurnContext | None] = ContextVar("agentlite_workspace_turn", default=None)


@contextlib.contextmanager
def turn_context(turn: str, author: str = "agent") -> Iterator[TurnContext]:
    context = TurnContext(check_label(turn, "turn id"), check_label(author, "author", 64))
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)


def current() -> TurnContext | None:
    return _current.get()


def resolve(turn: str | None, author: str | None, next_commit: int) -> TurnContext:
    """The turn and author of one change: the arguments, else the context, else a fresh turn."""
    context = _current.get()
    if turn is None:
        turn = context.turn if context is not None else f"auto-{next_commit}"
    if author is None:
        author = context.author if context is not None else DEFAULT_AUTHOR
    return TurnContext(check_label(turn, "turn id"), check_label(author, "author", 64))
