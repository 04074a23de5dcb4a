"""The demo model's reading of a request, as a model would read it: which dialect the system prompt asks
for, the user's last request (without its <context> block) and the tool results that came back since.
The project's instructions (AGENTS.md, a `<project-instructions>` block) are no request of the user's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.engine import prompt as notes

ENGINE_NOTES = (
    notes.CONTINUE_AFTER_LENGTH,
    notes.CONTINUE_AFTER_DROP,
    notes.CORRECT_FORMAT,
    notes.NUDGE_EMPTY,
    notes.NO_TOOLS_NOW,
    notes.GO_ON_AFTER_LOOP,
)


INSTRUCTIONS = re.compile(r"\A<project-instructions>\n.*?\n</project-instructions>\n*", re.S)
SKILLS = re.compile(r"\A<skills>\n(.*?)\n</skills>\n*", re.S)  # the listing (skills.skill_listing)


@dataclass
class Result:
    name: str
    ok: bool
    text: str

    @property
    def first_line(self) -> str:
        """The line a scenario quotes when a step went wrong."""
        return self.text.strip().splitlines()[0] if self.text.strip() else "no output"


@dataclass
class Conversation:
    """A request as the demo model reads it."""

    dialect: str  # native | json | ndjson | ndjson-text | plain (no tools offered)
    request: str = ""  # the user's last request, without its <context> block
    context: str = ""
    results: list[Result] = field(default_factory=list)
    summary_request: bool = False
    skills: list[str] = field(default_factory=list)  # the names the skills' listing offers
    planning: bool = False  # the system prompt says the chat is in Plan mode

    @classmethod
    def read(cls, body: dict[str, Any]) -> Conversation:
        messages = list(body.get("messages") or [])
        has_system = bool(messages) and messages[0].get("role") == "system"
        system = str(messages.pop(0).get("content") or "") if has_system else ""
        conv = cls(_dialect(body, system), summary_request=system.startswith("You condense conversations"))
        conv.planning = notes.PLAN_MARK in system
        names: dict[str, str] = {}
        for message in messages:
            conv._take(message, names)
        return conv

    def _take(self, message: dict[str, Any], names: dict[str, str]) -> None:
        content = re.sub(INSTRUCTIONS, "", str(message.get("content") or ""), count=1)
        listing = SKILLS.match(content)
        if listing:
            self.skills = re.findall(r"^- ([a-z0-9-]+): ", listing.group(1), re.M)
            content = content[listing.end() :]
        role = message.get("role")
        if role == "user" and not content:
            return
        if role == "assistant":
            names.update({c["id"]: c["function"]["name"] for c in message.get("tool_calls") or ()})
        elif role == "tool":
            name = names.get(str(message.get("tool_call_id")), "tool")
            self.results.append(
                Result(name, not content.lower().startswith(("not run", "the user rejected")), content)
            )
        elif role == "user" and content.startswith("[tool result"):
            for name, status, text in re.findall(
                r"\[tool result · (\w+) · (ok|error)\][^\n]*\n(.*?)(?=\n\n\[tool result|\Z)", content, re.S
            ):
                self.results.append(Result(name, status == "ok", text))
        elif role == "user" and not content.startswith(ENGINE_NOTES):
            match = re.match(r"<context>\n(.*?)\n</context>\n*", content, re.S)
            self.context, self.request = (match.group(1), content[match.end() :]) if match else ("", content)
            self.results = []

    def result(self, name: str) -> Result | None:
        return next((r for r in reversed(self.results) if r.name == name), None)


def _dialect(body: dict[str, Any], system: str) -> str:
    if body.get("tools"):
        return "native"
    if "## Reply format: NDJSON" in system:
        return "ndjson" if '"data_b64":"<base64' in system else "ndjson-text"
    return "json" if "## How to call a tool" in system else "plain"
