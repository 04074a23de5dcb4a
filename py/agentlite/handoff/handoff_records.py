"""The checks of a hand-off file's records: every one well formed and under its right key, the history
consistent and its contents whole, as the workspace's own import of a history checks them
(`workspace.history_check`, `history_import.content_problems`), every path by the workspace's rules,
the chats, the MCP server book and the memory of the shapes the app writes. Any problem raises
`HandoffRefused` naming the record.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from typing import Any

from agentlite.engine.chats import PREFIX as CHAT_PREFIX
from agentlite.engine.chats import SERVERS_KEY, TABS
from agentlite.handoff.handoff_contents import Handoff
from agentlite.handoff.handoff_format import SHA256, HandoffRefused
from agentlite.workspace import paths
from agentlite.workspace.history_check import RECORDS, History, problems
from agentlite.workspace.history_import import content_problems, key_of
from agentlite.workspace.import_budget import Budget
from agentlite.workspace.records import SCHEMA, Commit, Meta
from agentlite.workspace.workspace_errors import WorkspaceError

SHOWN = 5  # problems named in one message
# The exact types JSON gives each declared type (`type(True)` is bool, never int: a bool is no number).
_TYPES: dict[str, frozenset[type]] = {
    "int": frozenset({int}),
    "float": frozenset({int, float}),
    "str": frozenset({str}),
    "bool": frozenset({bool}),
    "str | None": frozenset({str, type(None)}),
    "int | None": frozenset({int, type(None)}),
}
_CHOICES = {"Kind": ("file", "dir"), "Op": ("create", "edit", "write", "delete", "move")}


def check_records(handoff: Handoff) -> None:
    """Refuse the hand-off unless every record is well formed and the history consistent (the contents
    themselves are checked by `check_contents`, which is async as the blob store is)."""
    history = _history(handoff)
    found = problems(history, set(handoff.blobs), Budget(source="the hand-off file")) + _path_problems(
        history
    )
    found += [
        f"content {sha[:12]} is stored in an unknown form" for sha, v in handoff.blobs.items() if _bad_blob(v)
    ]
    _refuse(found)
    handoff.declared = history.blobs_needed()
    _check_chats(dict(handoff.records.get("chats", [])))
    _check_memory(handoff.records.get("memory", []))


async def check_contents(handoff: Handoff) -> None:
    """Every blob inflates within the per-file limit (never past it), hashes to its key and is as long as
    its versions say."""
    declared = handoff.declared if handoff.declared is not None else _history(handoff).blobs_needed()
    _refuse(await content_problems(handoff.blobs, declared, Budget().file_bytes))


def _refuse(found: list[str]) -> None:
    if found:
        more = f" (and {len(found) - SHOWN} more)" if len(found) > SHOWN else ""
        raise HandoffRefused(
            f"the project's history is damaged: {'; '.join(found[:SHOWN])}{more}; nothing was opened"
        )


def _bad_blob(value: bytes) -> bool:
    return value[:1] not in (b"F", b"Z", b"D", b"d") or (
        value[:1] in (b"D", b"d") and not SHA256.fullmatch(value[1:65].decode("latin-1"))
    )


def _history(handoff: Handoff) -> History:
    """The workspace's records, each of its dataclass's shape and stored under its own key."""
    meta_rows = dict(handoff.records.get("meta", []))
    if set(meta_rows) - {"state"}:
        raise HandoffRefused(
            f"stores/meta.jsonl holds an unknown record {sorted(set(meta_rows) - {'state'})[0]!r}"
        )
    meta = _record(Meta, "meta", "state", meta_rows["state"]) if "state" in meta_rows else Meta()
    if meta.schema != SCHEMA:
        raise HandoffRefused(
            f"its workspace records are of schema {meta.schema}; this AgentLite reads {SCHEMA}"
        )
    history = History(meta)
    for store, kind in RECORDS.items():
        for key, value in handoff.records.get(store, []):
            record = _record(kind, store, key, value)
            if key != key_of(record):
                raise HandoffRefused(
                    f"stores/{store}.jsonl: the record under {key[:80]!r} belongs under another key"
                )
            history.add(record)
    for sha in handoff.blobs:
        if not SHA256.fullmatch(sha):
            raise HandoffRefused(f"blobs/{sha[:80]} is not named by a sha256")
    return history


def _record(kind: Any, store: str, key: str, value: str) -> Any:
    """The record of `kind` in `value`, its fields of the types its dataclass declares."""
    try:
        data = json.loads(value)
    except ValueError as exc:
        raise HandoffRefused(f"{_where(store, key)} is not JSON") from exc
    types, tests = _rules_of(kind)
    if type(data) is not dict or not data.keys() <= types.keys() | tests.keys():
        raise HandoffRefused(f"{_where(store, key)} is not a {store} record")
    for name, value_of in data.items():
        allowed = types.get(name)
        if not (type(value_of) in allowed if allowed is not None else tests[name](value_of)):
            raise HandoffRefused(f"{_where(store, key)} has a malformed {name}")
    if kind is Commit:
        data["changes"] = [tuple(pair) for pair in data.get("changes", [])]
    try:
        return kind(**data)
    except (TypeError, ValueError) as exc:
        raise HandoffRefused(f"{_where(store, key)} is not a {store} record ({exc})") from exc


def _where(store: str, key: str) -> str:
    return f"stores/{store}.jsonl: the record {key[:80]!r}"


@functools.cache
def _rules_of(kind: Any) -> tuple[dict[str, frozenset[type]], dict[str, Callable[[Any], bool]]]:
    """Each field's rule, from its declared type as written in its dataclass: the exact types JSON may
    give it, or (a choice, a list) a test of its value."""
    declared = {f.name: str(f.type) for f in dataclasses.fields(kind)}
    types = {name: _TYPES[text] for name, text in declared.items() if text in _TYPES}
    tests: dict[str, Callable[[Any], bool]] = {
        name: functools.partial(_fits, text) for name, text in declared.items() if text not in _TYPES
    }
    return types, tests


def _fits(kind: str, value: Any) -> bool:
    if kind in _CHOICES:
        return value in _CHOICES[kind]
    if kind == "list[str]":
        return isinstance(value, list) and all(type(v) is str for v in value)
    if kind == "list[tuple[int, int]]":
        return isinstance(value, list) and all(
            isinstance(v, list) and len(v) == 2 and all(type(n) is int for n in v) for v in value
        )
    return False


def _path_problems(history: History) -> list[str]:
    """Every path an entry, a version or a commit names must be one the workspace could hold, and never
    its root."""
    named = (
        [e.path for e in history.entries.values()]
        + [v.path for v in history.versions.values()]
        + [v.source for v in history.versions.values() if v.source]
    )
    named += [path for commit in history.commits.values() for path in commit.paths]
    found = []
    for path in sorted(set(named)):
        try:
            normal = paths.normalize(path, allow_root=False)
        except WorkspaceError:
            normal = None
        if normal != path:
            found.append(f"an invalid path {path[:200]!r}")
    return found


def _check_chats(rows: dict[str, str]) -> None:
    for key, value in rows.items():
        where = f"stores/chats.jsonl: the record {key[:80]!r}"
        data = _json(where, value)
        if key == TABS:
            ok = isinstance(data, dict) and isinstance(data.get("order", []), list)
        elif key == SERVERS_KEY:
            ok = _servers_ok(data)
        elif key.startswith(CHAT_PREFIX):
            ok = (
                isinstance(data, dict)
                and data.get("id") == key[len(CHAT_PREFIX) :]
                and isinstance(data.get("messages", []), list)
            )
        else:
            raise HandoffRefused(f"{where} is not a record the chats keep")
        if not ok:
            raise HandoffRefused(f"{where} is malformed")


def _servers_ok(data: Any) -> bool:
    """A list of servers the book would take (its package is loaded only for a project with servers)."""
    from agentlite.mcp.server_book import MAX_SERVERS, BookError, checked_url

    if not isinstance(data, list) or len(data) > MAX_SERVERS:
        return False
    try:
        return all(
            isinstance(item, dict) and checked_url(item.get("url", "")) == item["url"] for item in data
        )
    except BookError:
        return False


def _check_memory(rows: list[tuple[str, str]]) -> None:
    for key, value in rows:
        where = f"stores/memory.jsonl: the record {key[:80]!r}"
        data = _json(where, value)
        if not isinstance(data, dict) or data.get("id") != key or not isinstance(data.get("text"), str):
            raise HandoffRefused(f"{where} is malformed")


def _json(where: str, value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError as exc:
        raise HandoffRefused(f"{where} is not JSON") from exc
