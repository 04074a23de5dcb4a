"""The demo model plans in Plan mode (reads, proposes a checklist, writes nothing) and carries the
approved plan out in Agent mode, in every dialect; a write it tries while planning is refused."""

from __future__ import annotations

import asyncio

import pytest

from agentlite.engine.plan_mode import PLANNING
from agentlite.engine.task_plan import Step, checklist
from agentlite.stream.decoder import DIALECTS
from tests.unit.engine.test_demo import finished, primes_sandbox, run_demo, text_of

PAGE = "<!doctype html>\n<html>\n<body>\n  <h1>Hi</h1>\n</body>\n</html>\n"


def plan_turn(dialect: str, files: dict[str, str]) -> tuple[list[dict], list[dict]]:
    events, ws = run_demo(
        "plan: add a footer to index.html", primes_sandbox(), dialect, files=files, mode="plan"
    )
    assert asyncio.run(ws.read_text("/index.html")) == files.get("/index.html")
    plans = [e for e in events if e["kind"] == "plan"]
    return events, plans


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_plan_turn_reads_and_proposes_a_checklist_and_writes_nothing(dialect: str) -> None:
    events, plans = plan_turn(dialect, {"/index.html": PAGE})
    assert finished(events) == [("list_directory", "completed"), ("read_file", "completed")]
    assert "- [ ] Edit /index.html: add a footer" in text_of(events)
    assert len(plans) == 1 and plans[0]["proposed"] is True
    assert [s["text"] for s in plans[0]["steps"]] == [
        "Read /index.html to find where the page ends",
        'Edit /index.html: add a footer that says "Made with AgentLite" before </body>',
        "Report back",
    ]


def test_without_the_page_the_plan_creates_it() -> None:
    _events, plans = plan_turn("native", {})
    assert plans[0]["steps"][0]["text"] == 'Create /index.html with a footer that says "Made with AgentLite"'


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_approved_plan_is_carried_out_in_its_words_and_ticked(dialect: str) -> None:
    steps = [
        Step("Read /index.html to find where the page ends"),
        Step('Edit /index.html: add a footer that says "Made offline" before </body>'),
        Step("Report back"),
    ]
    text = "Carry out this approved plan:\n" + checklist(steps)
    events, ws = run_demo(text, primes_sandbox(), dialect, files={"/index.html": PAGE}, mode="agent")
    assert finished(events) == [("read_file", "completed"), ("edit_file", "completed")]
    assert "  <footer>Made offline</footer>\n</body>" in str(asyncio.run(ws.read_text("/index.html")))
    plans = [e for e in events if e["kind"] == "plan"]
    assert all(not step["done"] for step in plans[0]["steps"])
    assert all(step["done"] for step in plans[-1]["steps"])


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_write_the_demo_tries_while_planning_is_refused_and_it_hears_why(dialect: str) -> None:
    events, ws = run_demo("create a Button component", primes_sandbox(), dialect, mode="plan")
    assert finished(events) == [("create_file", "rejected")]
    rejected = next(e for e in events if e["kind"] == "tool_status" and e["status"] == "rejected")
    assert rejected["reason"] == PLANNING and rejected["result"]["errorType"] == "denied"
    assert "Plan mode" in text_of(events)  # the model read the refusal and said so
    assert asyncio.run(ws.read_text("/src/Button.tsx")) is None
