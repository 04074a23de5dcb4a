"""The skills' room (`skills.*`): the workspace's Agent Skills as the settings list them."""

from __future__ import annotations

from typing import Any

from agentlite.skills.skill_discovery import find_skills
from agentlite.workspace import Workspace


class SkillsRoom:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    async def list(self) -> dict[str, Any]:
        """As found now, the invalid ones with their reason (docs/skills.md)."""
        return (await find_skills(self.workspace)).view()
