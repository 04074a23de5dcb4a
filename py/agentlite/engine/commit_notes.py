"""The commit message of each agent turn in a git export (docs/git.md): what was asked, what was done.

First line: the first line of the user's request (cut to `SUBJECT_CHARS`). Body: the tool calls of the
turn, one line each with the path they worked on, so `git log` reads like the chat. Turns without a
chat message (a user's edit, a disk change, a closed tab's turns) get no note here; the export then
describes them from the workspace's own records.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SUBJECT_CHARS = 72
LISTED_CALLS = 30
PATH_KEYS = ("path", "source", "destination", "file_path", "filename")


def commit_notes(chats: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Turn id -> commit message, from chat records (`ChatSession.to_record()`). A regenerated answer's
    turn has no user message of its own: its request is the one it answers (its parent)."""
    asked: dict[str, str] = {}
    calls: dict[str, list[str]] = {}
    for chat in chats:
        messages = [m for m in chat.get("messages") or () if isinstance(m, dict)]
        by_id = {m.get("id"): m for m in messages}
        for message in messages:
            turn = message.get("turn")
            if not isinstance(turn, str):
                continue
            if turn not in asked:
                request = _request_of(message, by_id)
                if request is not None:
                    asked[turn] = _subject(str(request.get("content") or ""))
            for call in message.get("tool_calls") or () if message.get("role") == "assistant" else ():
                calls.setdefault(turn, []).append(_call_line(call))
    return {turn: _message(subject, calls.get(turn, [])) for turn, subject in asked.items()}


def _request_of(message: dict[str, Any], by_id: dict[Any, dict[str, Any]]) -> dict[str, Any] | None:
    """The user's message that `message` belongs to: itself, or the nearest one up its parents."""
    seen: set[Any] = set()
    current: dict[str, Any] | None = message
    while current is not None and current.get("id") not in seen:
        if current.get("role") == "user" and not current.get("hidden"):
            return current
        seen.add(current.get("id"))
        current = by_id.get(current.get("parent"))
    return None


def _subject(text: str) -> str:
    first = next((line.strip() for line in text.splitlines() if line.strip()), "") or "(empty request)"
    return first if len(first) <= SUBJECT_CHARS else first[: SUBJECT_CHARS - 1] + "…"


def _call_line(call: dict[str, Any]) -> str:
    arguments = call.get("arguments")
    where = [str(arguments[k]) for k in PATH_KEYS if isinstance(arguments, dict) and arguments.get(k)]
    return " ".join([str(call.get("name") or "tool"), *where])


def _message(subject: str, calls: list[str]) -> str:
    if not calls:
        return subject
    lines = calls[:LISTED_CALLS]
    if len(calls) > LISTED_CALLS:
        lines.append(f"... and {len(calls) - LISTED_CALLS} more")
    return f"{subject}\n\nTool calls:\n" + "\n".join(f"- {line}" for line in lines)
