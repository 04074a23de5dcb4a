"""The lean prompt, for a model whose profile asks for one (`ModelProfile.prompt`; the model in the page,
`agentlite.profiles.in_page`, docs/local-model.md, "Prompt cost"): a short base prompt, and tool
descriptions cut to their first sentence (`ModelProfile.brief_tools`). With the profile's few tools and
short context the first answer starts in well under a minute on a CPU; the engine keeps the prompt in
its cache across rounds, so later rounds read only what was added.
"""

from __future__ import annotations

import re
from typing import Any

from agentlite.engine.prompt import PLAN_MARK
from agentlite.profiles import ModelProfile

LEAN_AGENT = """You are a helpful assistant working on the user's files, which live in their browser.
Answer questions directly and briefly. To look at or change files, call one tool at a time."""
LEAN_CHAT = "You are a helpful assistant. Answer directly and briefly."
LEAN_PLAN = f"""You are a helpful assistant planning changes to the user's files, which live in their
browser. {PLAN_MARK}: look with the tools, change nothing, and end with the plan as a checklist of
"- [ ] step" lines."""


def system_prompt(mode: str) -> str:
    return {"chat": LEAN_CHAT, "plan": LEAN_PLAN}.get(mode, LEAN_AGENT)


def described(profile: ModelProfile, definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The offered tools as the model's profile wants them described: in full, or briefly."""
    return brief(definitions) if profile.brief_tools else definitions


def brief(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools with only the first sentence of each description: the rest (paging, retries, edge
    cases) is written for large models and costs a small one seconds of reading per sentence."""
    return [{**d, "description": first_sentence(str(d.get("description", "")))} for d in definitions]


def first_sentence(text: str) -> str:
    found = re.match(r"(.+?[.!?])(?:\s|$)", text, re.DOTALL)
    return found.group(1) if found else text
