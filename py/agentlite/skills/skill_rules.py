"""The Agent Skills format's rules for a SKILL.md's fields, and the `Skill` the rest of the app sees.

The rules (the format's specification): `name` is required, 1-64 characters of lowercase letters,
digits and hyphens, with no hyphen first, last or twice in a row, and equal to the skill's folder name;
`description` is required, 1-1024 characters; `license` is optional text; `compatibility` optional, at
most 500 characters; `metadata` an optional map of strings to strings; `allowed-tools` an optional
space-separated string (a list is taken too). Other fields are ignored, as other tools add their own.
A skill that breaks a rule is still listed, with the reason, but never offered to the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.skills.skill_frontmatter import FrontmatterError, Value, parse

NAME_CHARS = 64
DESCRIPTION_CHARS = 1024
COMPATIBILITY_CHARS = 500
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class Skill:
    """One skill folder as found: valid when `reason` is empty."""

    name: str  # the folder's name (what `load_skill` takes)
    folder: str  # its workspace path, e.g. /.agents/skills/pdf-forms
    description: str = ""
    reason: str = ""
    allowed_tools: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)  # license, compatibility, metadata when given

    @property
    def valid(self) -> bool:
        return not self.reason

    @property
    def path(self) -> str:
        return f"{self.folder}/SKILL.md"

    def view(self) -> dict[str, Any]:
        """What the page shows."""
        return {
            "name": self.name,
            "folder": self.folder,
            "description": self.description,
            "valid": self.valid,
            "reason": self.reason,
        }


def name_problem(name: str) -> str | None:
    """Why `name` is not a valid skill name, or None."""
    if not name:
        return "the name is empty"
    if len(name) > NAME_CHARS:
        return f"the name is {len(name)} characters long, over {NAME_CHARS}"
    if NAME.fullmatch(name) is None:
        return (
            f"the name {name[:NAME_CHARS]!r} may hold only lowercase letters, digits and single hyphens, "
            "and may not start or end with a hyphen"
        )
    return None


def read_skill(folder: str, text: str) -> Skill:
    """The skill in `folder` whose SKILL.md holds `text`."""
    folder_name = folder.rsplit("/", 1)[-1]
    try:
        fields = parse(text).fields
    except FrontmatterError as error:
        return Skill(folder_name, folder, reason=f"the frontmatter cannot be read: {error}")
    return check(folder, fields)


def check(folder: str, fields: dict[str, Value]) -> Skill:
    """A Skill from parsed fields: the first broken rule is its reason."""
    folder_name = folder.rsplit("/", 1)[-1]
    description = fields.get("description")
    shown = description.strip() if isinstance(description, str) else ""
    problem = _problem(folder_name, fields)
    if problem:
        return Skill(folder_name, folder, shown[:DESCRIPTION_CHARS], reason=problem)
    tools = fields.get("allowed-tools") or ""
    allowed = tuple(tools.split() if isinstance(tools, str) else tools)
    extra: dict[str, Any] = {k: fields[k] for k in ("license", "compatibility", "metadata") if k in fields}
    return Skill(folder_name, folder, shown, allowed_tools=allowed, extra=extra)


def _problem(folder_name: str, fields: dict[str, Value]) -> str | None:
    name = fields.get("name")
    if name is None:
        return "the frontmatter has no 'name'"
    if not isinstance(name, str):
        return "'name' must be text"
    problem = name_problem(name)
    if problem:
        return problem
    if name != folder_name:
        return f"the name {name!r} is not the folder's name {folder_name!r}"
    return _description_problem(fields.get("description")) or _optional_problem(fields)


def _description_problem(description: Value | None) -> str | None:
    if description is None:
        return "the frontmatter has no 'description'"
    if not isinstance(description, str) or not description.strip():
        return "'description' must be non-empty text"
    if len(description) > DESCRIPTION_CHARS:
        return f"the description is {len(description):,} characters long, over {DESCRIPTION_CHARS:,}"
    return None


def _optional_problem(fields: dict[str, Value]) -> str | None:
    if "license" in fields and not isinstance(fields["license"], str):
        return "'license' must be text"
    compatibility = fields.get("compatibility", "")
    if not isinstance(compatibility, str):
        return "'compatibility' must be text"
    if len(compatibility) > COMPATIBILITY_CHARS:
        return f"'compatibility' is {len(compatibility):,} characters long, over {COMPATIBILITY_CHARS}"
    if not isinstance(fields.get("metadata") or {}, dict):
        return "'metadata' must be a map of names to text"
    if isinstance(fields.get("allowed-tools"), dict):
        return "'allowed-tools' must be a space-separated string of tool names"
    return None
