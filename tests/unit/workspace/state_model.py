"""The plain model the workspace state machine checks against: `{path: text}` for files and
`{path: None}` for folders, and what each plain operation does to it (or the typed error it raises)."""

from __future__ import annotations

from dataclasses import dataclass

from agentlite.workspace import (
    AlreadyExists,
    Hunk,
    InvalidPath,
    NotADirectory,
    NotAFile,
    NotFound,
    WorkspaceError,
    paths,
)

State = dict[str, str | None]


class Expected(Exception):
    def __init__(self, error: type[WorkspaceError]) -> None:
        super().__init__(error.__name__)
        self.error = error


@dataclass
class Logged:
    turn: str
    before: State
    after: State
    kind: str
    primary: str | None

    def touched(self) -> set[str]:
        return {
            p for p in set(self.before) | set(self.after) if self.before.get(p, 0) != self.after.get(p, 0)
        }


def _is_file(state: State, path: str) -> bool:
    return path in state and state[path] is not None


def _with_parents(state: State, path: str) -> State:
    for folder in paths.ancestors(path):
        if _is_file(state, folder):
            raise Expected(NotADirectory)
    new = dict(state)
    for folder in paths.ancestors(path):
        new[folder] = None
    return new


def model_write(state: State, path: str, text: str, create_only: bool) -> State:
    if path in state and state[path] is None:
        raise Expected(NotAFile)
    if create_only and path in state:
        raise Expected(AlreadyExists)
    new = _with_parents(state, path)
    new[path] = text
    return new


def model_edit(state: State, path: str, original: str, replacement: str) -> State:
    if path not in state:
        raise Expected(NotFound)
    text = state[path]
    if text is None:
        raise Expected(NotAFile)
    starts = [i for i in range(len(text)) if text.startswith(original, i)]
    if len(starts) != 1:
        return state
    return {**state, path: text[: starts[0]] + replacement + text[starts[0] + len(original) :]}


def model_delete(state: State, path: str) -> State:
    if path not in state:
        raise Expected(NotFound)
    return {p: v for p, v in state.items() if not paths.is_within(p, path)}


def model_move(state: State, source: str, final: str) -> State:
    if source not in state:
        raise Expected(NotFound)
    if final == source:
        return state
    if state[source] is None and paths.is_within(final, source):
        raise Expected(InvalidPath)
    if final in state:
        raise Expected(AlreadyExists)
    rest = {p: v for p, v in state.items() if not paths.is_within(p, source)}
    new = _with_parents(rest, final)
    for p, v in state.items():
        if paths.is_within(p, source):
            new[paths.rebase(p, source, final)] = v
    return new


def model_mkdir(state: State, path: str) -> State:
    if _is_file(state, path):
        raise Expected(AlreadyExists)
    new = _with_parents(state, path)
    new[path] = None
    return new


def revert(text: str, hunk: Hunk) -> str:
    """`text` with the hunk's new side, at exactly its place in the new text, put back to its old side."""
    lines = text.splitlines(keepends=True)
    at = hunk.new_start - 1 if hunk.new_count else hunk.new_start
    assert lines[at : at + hunk.new_count] == list(hunk.new_lines), f"{hunk.header} is not in {text!r}"
    return "".join([*lines[:at], *hunk.old_lines, *lines[at + hunk.new_count :]])
