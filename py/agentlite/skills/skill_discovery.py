"""Finding a workspace's skills: each folder under `/.agents/skills/` and `/.claude/skills/`.

Looked at whenever asked (before each model request, for the page's list), so a new or changed skill
counts at once; but a SKILL.md is read and parsed only when its content is new: what it gave is kept by
(folder, content hash), so an unchanged workspace costs a listing of the two roots and a stat per
skill. Bounded whatever the workspace holds: at most `MAX_SKILLS` folders are read, a SKILL.md over
`MAX_SKILL_BYTES` or not text is listed as invalid without being parsed, and only the two roots' own
entries are listed (never the whole tree).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentlite.skills.skill_rules import Skill, read_skill

ROOTS = ("/.agents/skills", "/.claude/skills")
FILE = "SKILL.md"
MAX_SKILLS = 200
MAX_SKILL_BYTES = 256 * 1024
KEPT = 2 * MAX_SKILLS  # skills kept by content; the oldest go first


class Files(Protocol):
    """What discovery needs of `agentlite.workspace.Workspace`."""

    async def stat(self, path: str) -> dict[str, Any] | None: ...
    async def list(
        self, dir: str = "/", recursive: bool = False, details: bool = False
    ) -> list[dict[str, Any]]: ...
    async def read_bytes(self, path: str) -> bytes | None: ...


@dataclass
class Found:
    """Every skill folder found, sorted by name then root; `left_out` more were not read."""

    skills: list[Skill] = field(default_factory=list)
    left_out: int = 0

    @property
    def valid(self) -> list[Skill]:
        return [s for s in self.skills if s.valid]

    def named(self, name: str) -> Skill | None:
        """The valid skill of that name."""
        return next((s for s in self.valid if s.name == name), None)

    def view(self) -> dict[str, Any]:
        return {"skills": [s.view() for s in self.skills], "left_out": self.left_out}


async def find_skills(files: Files | None) -> Found:
    found = Found()
    if files is None:
        return found
    entries: list[dict[str, Any]] = []
    for root in ROOTS:
        entries.extend(await _entries(files, root))
    entries.sort(key=lambda e: (e["path"].rsplit("/", 1)[-1].casefold(), e["path"]))
    found.left_out = max(0, len(entries) - MAX_SKILLS)
    seen: set[str] = set()
    for entry in entries[:MAX_SKILLS]:
        skill = await _skill(files, entry)
        if skill.valid and skill.name in seen:
            skill = Skill(skill.name, skill.folder, skill.description, reason=_TWICE)
        seen.add(skill.name)
        found.skills.append(skill)
    return found


_TWICE = "a skill of the same name comes first (/.agents/skills/ before /.claude/skills/)"


async def _entries(files: Files, root: str) -> list[dict[str, Any]]:
    stat = await files.stat(root)
    if stat is None or stat.get("kind") != "dir":
        return []
    return await files.list(root)


class Parsed:
    """Skills already read, by (folder, SHA-256 of the SKILL.md): the same bytes in the same folder give
    the same skill, so they are parsed once (`parses` counts the parses, for the tests and the bench)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], Skill] = {}
        self.parses = 0

    def get(self, folder: str, digest: str) -> Skill | None:
        skill = self.kept.pop((folder, digest), None)
        if skill is not None:
            self.kept[(folder, digest)] = skill  # the most recently used goes last
        return skill

    def read(self, folder: str, digest: str, text: str) -> Skill:
        self.parses += 1
        skill = self.kept[(folder, digest)] = read_skill(folder, text)
        while len(self.kept) > KEPT:
            del self.kept[next(iter(self.kept))]
        return skill


PARSED = Parsed()


async def _skill(files: Files, entry: dict[str, Any]) -> Skill:
    folder = entry["path"]
    name = folder.rsplit("/", 1)[-1]
    if entry.get("kind") != "dir":
        return Skill(name, folder, reason=f"{folder} is a file: a skill is a folder holding {FILE}")
    path = f"{folder}/{FILE}"
    stat = await files.stat(path)
    digest = str((stat or {}).get("sha256") or "")
    known = PARSED.get(folder, digest) if digest else None
    if known is not None:
        return known
    problem, text = await _read(files, path, stat)
    if text is None:
        return Skill(name, folder, reason=problem)
    return PARSED.read(folder, digest or hashlib.sha256(text.encode()).hexdigest(), text)


async def _read(files: Files, path: str, stat: dict[str, Any] | None) -> tuple[str, str | None]:
    """(why not, None) or ("", the text of the SKILL.md at `path`, whose stat is `stat`)."""
    if stat is None:
        return f"the folder has no {FILE}", None
    if stat.get("kind") != "file":
        return f"{FILE} is a folder, not a file", None
    size = int(stat.get("size") or 0)
    if size > MAX_SKILL_BYTES:
        return f"{FILE} is {size:,} bytes, over the {MAX_SKILL_BYTES // 1024} KiB a skill may be", None
    data = await files.read_bytes(path)
    if data is None:
        return f"the folder has no {FILE}", None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return f"{FILE} is not UTF-8 text", None
    if "\0" in text:
        return f"{FILE} is not text (it holds NUL bytes)", None
    return "", text
