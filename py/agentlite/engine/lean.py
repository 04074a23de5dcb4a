"""The lean prompt for small models that run in the page (docs/local-model.md, "Prompt cost").

The engine in the page reads a prompt at tens of tokens per second on a CPU: the full prompt (the agent's
instructions and every tool's protocol text, several thousand tokens) would take minutes before the first
word. For the model in the page (`local:`), a turn sends a short base prompt and the few file tools a
small model can use, each described by its first sentence only; its user message names the open file
without its text, lists at most ten workspace paths, and no skills are listed. So the first answer starts
in well under a minute; the engine keeps the prompt in
its cache across rounds, so later rounds read only what was added.
"""

from __future__ import annotations

import re
from typing import Any

from agentlite.settings import LOCAL_BASE

LEAN_TOOLS = ("list_directory", "read_file", "write_file", "edit_file")
LEAN_OUTLINE = 10  # workspace paths in a lean turn's context (60 otherwise); list_directory shows the rest
LEAN_AGENT = """You are a helpful assistant working on the user's files, which live in their browser.
Answer questions directly and briefly. To look at or change files, call one tool at a time."""
LEAN_CHAT = "You are a helpful assistant. Answer directly and briefly."


def wanted(base_url: str) -> bool:
    """Whether turns on this endpoint use the lean prompt: the model in the page does."""
    return base_url == LOCAL_BASE


def system_prompt(mode: str) -> str:
    return LEAN_CHAT if mode == "chat" else LEAN_AGENT


def brief(definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tools with only the first sentence of each description: the rest (paging, retries, edge
    cases) is written for large models and costs a small one seconds of reading per sentence."""
    return [{**d, "description": first_sentence(str(d.get("description", "")))} for d in definitions]


def first_sentence(text: str) -> str:
    found = re.match(r"(.+?[.!?])(?:\s|$)", text, re.DOTALL)
    return found.group(1) if found else text
