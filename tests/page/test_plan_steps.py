"""The page's side of a plan (web/src/views/plan-steps.js) and of the chat modes
(web/src/settings/chat-mode.js) under Node: the steps a user's edit gives, one a line whatever the line
breaks or the list markers typed, and the approved plan's message, which the agent reads back as the same
steps (agentlite.engine.task_plan.read_checklist); the modes' order and the URL's `mode=`."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.task_plan import read_checklist
from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "plan_steps_runner.mjs"


def page_side(edited: list[str], searches: list[str] = [], modes: list[str] = []) -> dict[str, Any]:  # noqa: B006
    return run_node(RUNNER, {"edited": edited, "searches": searches, "modes": modes})[0]


def test_an_edit_gives_one_step_a_line_without_the_markers_typed() -> None:
    found = page_side(["- [ ] Read /a.md\r\n\n  2. Edit /b.md: x\t y\n* [x] Report back\n   \n"])
    assert found["steps"] == [["Read /a.md", "Edit /b.md: x  y", "Report back"]]
    assert found["approved"] == [
        "Carry out this approved plan:\n- [ ] Read /a.md\n- [ ] Edit /b.md: x  y\n- [ ] Report back"
    ]
    assert page_side(["", " \n - \n"])["steps"] == [[], []]


def test_the_modes_go_round_and_the_url_chooses_one() -> None:
    found = page_side(
        [], ["?mode=plan", "?mode=chat&x=1", "?mode=PLAN", "?mode=", ""], ["agent", "chat", "plan", "odd"]
    )
    assert found["fromUrl"] == ["plan", "chat", None, None, None]
    assert found["next"] == ["chat", "plan", "agent", "agent"]
    assert found["labels"] == ["Agent", "Chat", "Plan", "Agent"]


@settings(max_examples=25)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_the_agent_reads_the_approved_message_as_the_edited_steps(lines: list[str]) -> None:
    found = page_side(["\n".join(lines)])
    steps, message = found["steps"][0], found["approved"][0]
    assert [step.text for step in read_checklist(message)] == steps
