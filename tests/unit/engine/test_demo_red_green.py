"""The demo's "write a function and a test, then run the tests" scenario: it writes a buggy add() and its
test, runs pytest (a fake sandbox that answers as pytest would for the files it is given), fixes the bug
with edit_file and runs pytest green, in every dialect; a refused run ends the turn with the reason."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.demo import red_green
from agentlite.demo.scenarios import examples
from agentlite.page_jobs import ScriptedSandbox, shell_result
from agentlite.stream.decoder import DIALECTS
from agentlite.workspace import Workspace
from tests.unit.engine.test_demo import finished, run_demo, text_of

PROMPT = "write a function and a test, then run the tests"


def fake_pytest(commands: list[str]) -> ScriptedSandbox:
    """Answers `pytest` as pytest does: one failure while add() subtracts, all passed once it adds."""

    def handler(kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        assert kind == "shell"
        commands.append(payload["command"])
        if "return a + b" in payload["files"][red_green.FUNCTION_PATH]:
            return shell_result(stdout="..  [100%]\n2 passed in 0.02s\n")
        failed = "FAILED test_calc.py::test_add_two_numbers - assert -1 == 5\n1 failed, 1 passed in 0.03s\n"
        return shell_result(stdout=failed, exit_code=1)

    return ScriptedSandbox(handler)


def run(dialect: str, approve: bool = True) -> tuple[list[dict[str, Any]], Workspace, list[str]]:
    commands: list[str] = []
    events, workspace = run_demo(PROMPT, fake_pytest(commands), dialect, approve)
    return events, workspace, commands


@pytest.mark.parametrize("dialect", DIALECTS)
def test_red_then_fixed_then_green(dialect: str) -> None:
    events, workspace, commands = run(dialect)
    assert finished(events) == [
        ("write_file", "completed"),
        ("write_file", "completed"),
        ("shell_exec", "failed"),  # pytest's exit code 1
        ("edit_file", "completed"),
        ("shell_exec", "completed"),
    ]
    assert commands == ["pytest", "pytest"]
    text = text_of(events)
    assert "1 failed, 1 passed: add() subtracts" in text and "All green: 2 passed." in text
    assert asyncio.run(workspace.read_text("/calc.py")) == red_green.FUNCTION.replace("a - b", "a + b")
    assert "def test_add_two_numbers" in str(asyncio.run(workspace.read_text("/test_calc.py")))


def test_a_refused_run_ends_the_turn_with_the_reason() -> None:
    events, _workspace, commands = run("native", approve=False)
    assert commands == [] and finished(events)[-1] == ("shell_exec", "rejected")
    assert "The tests did not run" in text_of(events)


def test_the_first_screen_offers_it() -> None:
    assert {"prompt": PROMPT, "detail": "runs pytest, fixes the bug, runs it green"} in examples()
