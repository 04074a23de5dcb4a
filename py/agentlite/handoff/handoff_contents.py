"""`Handoff`: one project as a hand-off file holds it, and the summary the page shows before opening it.

The summary names what would steer the agent or reach the network once the project is used: every
instruction file (AGENTS.md in any folder and any case, each skill's SKILL.md, found by the rules the
agent itself uses) and every MCP server (its URL and name), so the user sees them before anything runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentlite.engine.chats import PREFIX as CHAT_PREFIX
from agentlite.engine.chats import SERVERS_KEY
from agentlite.engine.project_instructions import instruction_paths
from agentlite.skills.skill_discovery import FILE as SKILL_FILE
from agentlite.workspace import paths
from agentlite.workspace.storage import Value


@dataclass
class Handoff:
    """A project's stores (records as stored, key order), its attachments' originals and its settings."""

    name: str
    created: str
    records: dict[str, list[tuple[str, str]]]
    blobs: dict[str, bytes]
    attachments: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    size: int = 0  # bytes of the file (0 until written or read)
    declared: dict[str, int] | None = None  # sha256 -> the size its versions declare, once checked

    def rows(self, store: str) -> list[tuple[str, Value]]:
        """The store's (key, value) pairs as the database holds them."""
        if store == "blobs":
            return sorted(self.blobs.items())
        return list(self.records.get(store, []))

    def entries(self) -> list[dict[str, Any]]:
        return [json.loads(value) for _key, value in self.records.get("entries", [])]

    def servers(self) -> list[dict[str, Any]]:
        """The MCP server book's entries (as stored)."""
        raw = dict(self.records.get("chats", [])).get(SERVERS_KEY)
        items = json.loads(raw) if raw else []
        return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []

    def summary(self) -> dict[str, Any]:
        live = [e for e in self.entries() if e.get("live")]
        chats = self.records.get("chats", [])
        return {
            "name": self.name,
            "created": self.created,
            "files": sum(1 for e in live if e.get("kind") == "file"),
            "versions": len(self.records.get("versions", [])),
            "commits": len(self.records.get("commits", [])),
            "chats": sum(1 for key, _value in chats if key.startswith(CHAT_PREFIX)),
            "memory": len(self.records.get("memory", [])),
            "attachments": len(self.attachments),
            "bytes": self.size,
            "instructions": instruction_files(live),
            "servers": [{"url": str(s.get("url")), "name": str(s.get("name") or "")} for s in self.servers()],
        }


def instruction_files(live: list[dict[str, Any]]) -> list[str]:
    """Every live file that would be the agent's instructions: AGENTS.md files (the prompt layer's own
    list first, then any other spelling of the name) and each skill's SKILL.md."""
    files = [e for e in live if e.get("kind") == "file"]
    found = instruction_paths(files)
    found += sorted(e["path"] for e in files if paths.is_instructions(e["path"]) and e["path"] not in found)
    skills = [e["path"] for e in files if _is_skill_file(e["path"])]
    return found + sorted(skills)


def _is_skill_file(path: str) -> bool:
    """`/.agents/skills/<name>/SKILL.md` (or under `/.claude/skills/`), its roots in any case as the
    workspace's own rule (`paths.is_skill`) reads them."""
    parts = path.split("/")
    return paths.is_skill(path) and len(parts) == 5 and parts[-1].casefold() == SKILL_FILE.casefold()
