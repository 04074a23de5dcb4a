"""The records of the data model, as stored (JSON strings, compact and deterministic).

- `Entry`: the head pointer of one file or folder (its newest version), keyed by entry id. A file keeps its
  entry id (and so its history) across moves and renames; a file re-created at the path of a deleted one
  continues that one's history.
- `Version`: one change of one entry `{path, version, op, blob, parent, turn, time, author, size, sha256}`
  plus `id`, `kind`, `commit`, `binary`, `source` (the old path of a move) and `note`.
- `Commit`: one atomic change of the workspace (one or more versions), numbered 1, 2, 3 ...
- `Turn`: the commits of one agent reply or one user edit.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

Kind = Literal["file", "dir"]
Op = Literal["create", "edit", "write", "delete", "move"]
SCHEMA = 1


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_key(entry_id: int) -> str:
    return f"{entry_id:010d}"


def version_key(entry_id: int, version: int) -> str:
    return f"{entry_id:010d}:{version:010d}"


def commit_key(number: int) -> str:
    return f"{number:012d}"


@dataclass(frozen=True)
class Entry:
    id: int
    path: str
    kind: Kind
    version: int
    live: bool
    commit: int  # the commit of the newest version
    sha256: str | None = None
    size: int = 0
    binary: bool = False
    base: str | None = None  # how the blob is stored: "" full, a sha256 = delta on that base, None unknown
    chain: int = 0  # delta bytes written against `base` by this entry

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        return cls(**json.loads(text))

    def evolve(self, **changes: Any) -> Entry:
        return replace(self, **changes)


@dataclass(frozen=True)
class Version:
    id: int
    version: int
    path: str
    kind: Kind
    op: Op
    parent: int | None
    commit: int
    turn: str
    author: str
    time: float
    blob: str | None = None
    sha256: str | None = None
    size: int = 0
    binary: bool = False
    source: str | None = None  # a move's old path
    note: str | None = None  # why: "undo", "revert hunk 2 of version 4", "restore before turn t3", "import"

    @property
    def key(self) -> str:
        return version_key(self.id, self.version)

    @property
    def live(self) -> bool:
        return self.op != "delete"

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Version:
        return cls(**json.loads(text))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Commit:
    number: int
    turn: str
    author: str
    time: float
    changes: list[tuple[int, int]] = field(default_factory=list)  # (entry id, version)
    paths: list[str] = field(default_factory=list)
    note: str | None = None

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Commit:
        data = json.loads(text)
        data["changes"] = [tuple(pair) for pair in data["changes"]]
        return cls(**data)


@dataclass(frozen=True)
class Turn:
    turn: str
    author: str
    time: float
    first: int  # first and last commit numbers
    last: int
    commits: int = 1

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Turn:
        return cls(**json.loads(text))

    def evolve(self, **changes: Any) -> Turn:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Meta:
    next_id: int = 1
    commit: int = 0
    schema: int = SCHEMA

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | bytes) -> Meta:
        return cls(**json.loads(text))
