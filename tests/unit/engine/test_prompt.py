"""The base prompts: vague requests get a sensible default and at most two precise questions."""

from __future__ import annotations

import re

import pytest

from agentlite.engine.prompt import system_prompt


@pytest.mark.parametrize("mode", ["agent", "chat"])
def test_a_vague_request_gets_a_sensible_default_and_at_most_two_precise_questions(mode: str) -> None:
    text = " ".join(system_prompt(mode).split())
    assert re.search(r"[Ww]hen a request is vague", text)
    assert re.search(r"infer (the most sensible|a sensible) default", text), text
    assert re.search(r"ask at most two (short, )?precise questions", text), text


def test_agent_and_chat_prompts_differ_only_where_the_modes_do() -> None:
    agent, chat = system_prompt("agent"), system_prompt("chat")
    assert "tools" in agent and "Agent mode" in chat and agent != chat
