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
    """Turn id -> commit message, from chat records (`ChatSession.to_record()`)."""
    asked: dict[str, str] = {}
    calls: dict[str, list[str]] = {}
    for chat in chats:
        for message in chat.get("messages") or ():
            turn = message.get("turn")
            if not isinstance(turn, str):
                continue
            if message.get("role") == "user" and not message.get("hidden") and turn not in asked:
                asked[turn] = _subject(str(message.get("content") or ""))
            for call in message.get("tool_calls") or () if message.get("role") == "assistant" else ():
                calls.setdefault(turn, []).append(_call_line(call))
    return {turn: _message(subject, calls.get(turn, [])) for turn, subject in asked.items()}


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
