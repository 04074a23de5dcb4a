"""Plan mode: a turn reads and plans; every tool that could change something is refused with a result
that tells the model it is planning; its answer's checklist is proposed, and a checklist sent back in
Agent mode is the plan the turn ticks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from agentlite.commands import SendMessage
from agentlite.editor_state import EditorState
from agentlite.engine import lean, plan_mode, prompt
from agentlite.engine.turn_deps import MODES
from agentlite.mcp.remote_tool import _tool as remote_tool
from agentlite.tools.catalog import all_tools
from agentlite.tools.registry import Risk, ToolRegistry
from tests.unit.engine.support import FakeTools, Harness, calls, say

PLAN_ANSWER = "The page has no footer.\n\n- [ ] Edit /index.html: add a footer\n- [ ] Report back"
READS = {"list_directory", "read_file", "search", "check_problems", "load_skill", "conversation_summary"}
LOOKS = {"preview_page", "preview_snapshot", "preview_wait"}  # runs that change nothing


@pytest.mark.parametrize("risk", list(Risk))
def test_only_reads_and_inspections_may_run_in_plan_mode(risk: Risk) -> None:
    tool = FakeTools().tool("some_tool", risk)
    assert plan_mode.may_plan(tool) is (risk is Risk.READ)
    assert (plan_mode.refusal(tool) is None) is (risk is Risk.READ)
    assert plan_mode.may_plan(replace(tool, inspects=True))


def test_the_apps_tools_that_plan_mode_runs_are_the_reads_and_the_previews_looks() -> None:
    allowed = {tool.name for tool in all_tools() if plan_mode.may_plan(tool)}
    assert allowed == READS | LOOKS


def test_a_remote_servers_tool_is_refused() -> None:
    tool = remote_tool(None, "docs", "lookup", "mcp__docs__lookup", {"name": "lookup"}, 1000)  # type: ignore[arg-type]
    assert plan_mode.refusal(tool) == plan_mode.PLANNING


def test_plan_is_a_mode_the_page_may_send() -> None:
    assert "plan" in MODES
    sent = SendMessage.of("c1", "plan it", mode="plan", editor=EditorState())
    assert sent.options.mode == "plan"
    assert SendMessage.of("c1", "x", mode="draw", editor=EditorState()).options.mode is None
    chat = Harness().setup()
    assert chat.configure(mode="plan")["mode"] == "plan"
    assert chat.configure(mode="nonsense")["mode"] == "agent"


def test_every_plan_prompt_says_it_plans() -> None:
    assert prompt.PLAN_MARK in prompt.system_prompt("plan")
    assert prompt.PLAN_MARK in lean.system_prompt("plan")
    assert prompt.PLAN_MARK not in prompt.system_prompt("agent") + lean.system_prompt("agent")


def _offered(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools") or []}


def test_a_write_in_plan_mode_is_refused_and_the_refusal_reaches_the_model() -> None:
    write = ("write_file", {"path": "/index.html", "content": "gone"})
    h = Harness([calls(write, ("read_file", {"path": "/index.html"})), say(PLAN_ANSWER)])
    h.run("plan: add a footer to index.html", mode="plan")
    assert h.tools.ran == [("read_file", {"path": "/index.html", "content": ""})]
    assert ("call_demo_1", "rejected") in h.statuses()
    first, second = h.requests()
    assert prompt.PLAN_MARK in first["messages"][0]["content"]
    assert _offered(first) == {"read_file", "list_directory", "missing_file"}
    results = [m["content"] for m in second["messages"] if m["role"] == "tool"]
    assert results[0] == plan_mode.PLANNING and results[1].startswith("read_file ok")
    assert not h.of("approval")  # a refused call asks nothing


def test_the_answer_of_a_plan_turn_is_proposed_and_kept_with_the_chat() -> None:
    h = Harness([say(PLAN_ANSWER)]).run("plan: add a footer", mode="plan")
    plans = h.of("plan")
    turn = h.of("turn_start")[0]["turn"]
    steps = [
        {"text": "Edit /index.html: add a footer", "done": False},
        {"text": "Report back", "done": False},
    ]
    assert plans == [{"kind": "plan", "turn": turn, "steps": steps, "proposed": True}]
    assert h.chat is not None
    assert h.chat.snapshot()["plan"] == {"steps": steps, "turn": turn, "proposed": True}
    assert h.chat.to_record()["plan"]["proposed"] is True


def test_a_plan_turn_without_a_list_proposes_nothing() -> None:
    h = Harness([say("I need to know which page you mean.")]).run("plan something", mode="plan")
    assert h.of("plan") == []


def test_an_agent_turn_carrying_a_checklist_ticks_it() -> None:
    edit = ("edit_file", {"path": "/index.html", "content": "x"})
    h = Harness([calls(("read_file", {"path": "/index.html"})), calls(edit), say("Done.")])
    h.run("Carry out this approved plan:\n- [ ] Read /index.html\n- [ ] Edit /index.html: add a footer\n"
          "- [ ] Report back", mode="agent")  # fmt: skip
    plans = h.of("plan")
    assert [s["done"] for s in plans[0]["steps"]] == [False, False, False]
    assert "proposed" not in plans[0]
    assert [s["done"] for s in plans[-1]["steps"]] == [True, True, True]
    assert prompt.PLAN_INSTRUCTION not in str(h.requests()[0]["messages"])


def test_chat_mode_ignores_a_checklist() -> None:
    h = Harness([say("Nice list.")]).run("- [ ] one\n- [ ] two", mode="chat")
    assert h.of("plan") == []


def test_the_offered_tools_of_a_plan_request_keep_their_order() -> None:
    tools = FakeTools()
    registry = ToolRegistry(
        [tools.tool("a", Risk.READ), tools.tool("b", Risk.MODIFY), tools.tool("c", Risk.READ)]
    )
    assert [d["name"] for d in plan_mode.offered(registry, registry.definitions())] == ["a", "c"]
    assert plan_mode.offered(registry, [{"name": "gone"}]) == []
