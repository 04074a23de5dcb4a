"""What the model is told of the skills: names and descriptions of the valid ones, nothing more
(progressive disclosure: the body comes through `load_skill` when a task calls for it).

The listing is one user message after the AGENTS.md layer and before the conversation, so everything
before it (system prompt, tools, project instructions) stays the same whether a skill is added or not and
a provider's prompt cache keeps that prefix. It costs at most `SHARE` of the model's context window:
when the descriptions do not fit whole they are all cut to the same length (every skill keeps its name
and the start of its description), and only past the shortest cut are skills left out, with a note
naming how many (the tool's error for an unknown name lists every name). The last listing is kept
with what it was made from (the valid skills' names and descriptions, the budget, the counter), so a
request in an unchanged workspace counts no tokens for it again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentlite.skills.skill_discovery import Files, find_skills
from agentlite.skills.skill_rules import Skill

SHARE = 0.02
CUTS = (240, 160, 100, 60)  # characters a description is cut to, longest first, when all do not fit
TAG = "skills"
HEAD = (
    "Agent Skills in this workspace: folders of instructions, scripts and resources for particular tasks. "
    "When a task matches a skill's description, call load_skill(name) first and follow what it says; "
    'load_skill(name, file="...") reads one of its files, and its scripts run with shell_exec. The user '
    "starts a message with /name to ask for one."
)

Count = Callable[[str], int]


def budget_for(window: int) -> int:
    """The tokens the listing may take in a context window of `window` tokens."""
    return max(0, int(window * SHARE))


def render(skills: list[Skill], budget: int, count: Count) -> str:
    """The listing's text ("" without valid skills), within `budget` tokens as `count` counts the message:
    every description whole when they fit, else all cut to the longest of `CUTS` that fits, else the
    shortest cut for as many skills as fit and a note for the rest (the head and the note alone may be
    over a tiny budget: then no skill is listed, only how many)."""
    valid = [s for s in skills if s.valid]
    if not valid:
        return ""
    for limit in (None, *CUTS):
        text = _text([_line(skill, limit) for skill in valid], 0)
        if count(_wrap(text)) <= budget:
            return text
    lines: list[str] = []
    for at, skill in enumerate(valid):
        line = _line(skill, CUTS[-1])
        if count(_wrap(_text([*lines, line], len(valid) - at - 1))) > budget:
            return _text(lines, len(valid) - at)
        lines.append(line)
    return _text(lines, 0)


def _text(lines: list[str], left: int) -> str:
    return "\n".join([HEAD, "", *lines, *([_note(left)] if left else [])])


def _line(skill: Skill, limit: int | None) -> str:
    text = " ".join(skill.description.split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"- {skill.name}: {text}"


def _note(left: int) -> str:
    return (
        f"- ({left} more skills are not listed to save space: call load_skill with a name to load one; "
        "an unknown name answers with every skill's name)"
    )


def _wrap(text: str) -> str:
    return f"<{TAG}>\n{text}\n</{TAG}>"


def skills_message(text: str) -> list[dict[str, Any]]:
    """The request messages that carry the listing (none when it is empty)."""
    return [{"role": "user", "content": _wrap(text)}] if text else []


Key = tuple[int, tuple[tuple[str, str], ...]]  # the budget, the valid skills' names and descriptions
_last: list[tuple[Key, Count, str]] = []  # the last listing: (its key, its counter, its text)


async def read_listing(files: Files | None, window: int, count: Count) -> str:
    """The listing of the workspace's skills as they are now, for a `window`-token context."""
    found = await find_skills(files)
    key = (budget_for(window), tuple((s.name, s.description) for s in found.skills if s.valid))
    if _last and _last[0][0] == key and _last[0][1] == count and count(_wrap(_last[0][2])) <= key[0]:
        return _last[0][2]  # still within the budget as the counter counts now (it calibrates itself)
    text = render(found.skills, key[0], count)
    _last[:] = [(key, count, text)]
    return text
