"""The model in the page gets the lean prompt (docs/local-model.md, "Prompt cost"): a short base prompt
and the four file tools, in the json dialect when `auto`; any other endpoint gets the full prompt."""

from __future__ import annotations

from agentlite.engine.lean import LEAN_AGENT, LEAN_TOOLS
from agentlite.engine.prompt import AGENT
from agentlite.settings import LOCAL_BASE, Settings
from tests.unit.engine.support import SETTINGS, Harness, say

LOCAL = Settings(base_url=LOCAL_BASE, model="local", dialect="auto")


def system_text(body: dict) -> str:
    return str(body["messages"][0]["content"])


def test_a_turn_on_the_model_in_the_page_sends_the_lean_prompt_in_json() -> None:
    body = Harness([say("Hello!")]).run("hi", LOCAL).requests()[0]
    system = system_text(body)
    assert system.startswith(LEAN_AGENT) and "tools" not in body  # json: the protocol is in the prompt
    for name in LEAN_TOOLS:
        assert name in system
    assert "delete_file" not in system and "shell_exec" not in system
    assert len(system) < len(AGENT)


def test_a_turn_on_a_network_endpoint_keeps_the_full_prompt() -> None:
    body = Harness([say("Hello!")]).run("hi", SETTINGS).requests()[0]
    assert system_text(body).startswith(AGENT.strip()[:40])
    assert {tool["function"]["name"] for tool in body["tools"]} >= {"delete_file", "shell_exec"}
