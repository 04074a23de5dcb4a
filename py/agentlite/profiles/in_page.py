"""The model in the page (docs/local-model.md): a small model that an engine runs in the page on a CPU.

It reads a prompt at tens of tokens per second, so the full prompt (the agent's instructions and every
tool's protocol text, several thousand tokens) would take minutes before the first word. Its turns send
the lean prompt (engine/lean.py) and the four file tools a small model can use, each described by its
first sentence; a user message names the open file without its text and lists ten workspace paths
(list_directory shows the rest); no skills are listed (there is no `load_skill` to load one). A small model
copies tool names from the conversation, so only the offered tools run; it answers the plan instruction
by describing it, so it gets none; an answer cut by the output limit is usually a model repeating itself,
and each continuation costs minutes, so none is asked for. Its models rarely have a chat template that
renders tools: `auto` starts on `json`.
"""

from __future__ import annotations

from dataclasses import replace

from agentlite.profiles.profile import REMOTE

IN_PAGE = replace(
    REMOTE,
    name="in-page",
    prompt="lean",
    tools=("list_directory", "read_file", "write_file", "edit_file"),
    brief_tools=True,
    only_offered_run=True,
    outline=10,
    open_file_text=False,
    skills_listed=False,
    plans=False,
    continuations=0,
    dialect="json",
)
