"""`/name` at the start of a user message: the user asks for a skill by hand (docs/skills.md).

The skill's SKILL.md goes with the message as a reference (the same layer as a file picked with
`@path`, kept through truncation), so the model has the instructions without a round trip through
`load_skill`; its other files it loads as usual. Only a valid skill counts: `/usr/bin` or `/nothing`
is just text.
"""

from __future__ import annotations

import re

from agentlite.skills.skill_discovery import Files, find_skills

COMMAND = re.compile(r"^\s*/([a-z0-9][a-z0-9-]{0,63})(?=\s|$)")


def command_name(text: str) -> str | None:
    """The skill name a message starts with (`/name ...`), or None."""
    match = COMMAND.match(text)
    return match.group(1) if match else None


async def invoked_skill(text: str, files: Files | None) -> tuple[str, str] | None:
    """(SKILL.md path, its text) of the valid skill the message invokes, or None."""
    name = command_name(text)
    if name is None or files is None:
        return None
    skill = (await find_skills(files)).named(name)
    if skill is None:
        return None
    data = await files.read_bytes(skill.path)
    return None if data is None else (skill.path, data.decode("utf-8", "replace"))
