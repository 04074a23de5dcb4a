"""The demo's skills scenario (find → load_skill → the skill's script through shell_exec), and `/name` at
the start of a message sending that skill's SKILL.md with it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.demo import skill_demo
from agentlite.demo.scenarios import examples
from agentlite.engine.turn_deps import TurnOptions
from agentlite.engine.turn_message import message_layers
from agentlite.page_jobs import ScriptedSandbox, shell_result
from agentlite.skills.skill_invocation import command_name
from agentlite.stream.decoder import DIALECTS
from tests.unit.engine.test_demo import finished, run_demo, text_of
from tests.unit.tools.conftest import workspace_with

PROMPT = "use a skill to write a word report"
REPORT = "# Word report\n\nTotal: 3 words in 1 files.\n"


def run(dialect: str, files: dict[str, str] | None) -> tuple[list[dict[str, Any]], Any, list[Any]]:
    seen: list[Any] = []

    def handler(kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        seen.append((kind, payload["command"]))
        return shell_result(
            stdout="3 words in 1 files -> /reports/words.md\n", changed={skill_demo.REPORT: REPORT}
        )

    events, workspace = run_demo(PROMPT, ScriptedSandbox(handler), dialect, files=files)
    return events, workspace, seen


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_listed_skill_is_loaded_then_its_script_runs(dialect: str) -> None:
    events, workspace, seen = run(dialect, dict(skill_demo.EXAMPLE))
    assert finished(events) == [("load_skill", "completed"), ("shell_exec", "completed")]
    assert seen == [("shell", f"python {skill_demo.FOLDER}/scripts/report.py")]
    assert asyncio.run(workspace.read_text(skill_demo.REPORT)) == REPORT
    assert "Done with the skill: 3 words in 1 files" in text_of(events)


def test_without_skills_it_writes_the_example_skill_first_and_asks() -> None:
    events, workspace, _ = run("native", None)
    assert finished(events) == [
        ("write_file", "completed"),
        ("write_file", "completed"),
        ("load_skill", "completed"),
        ("shell_exec", "completed"),
    ]
    reasons = [e["reason"] for e in events if e["kind"] == "approval"]
    assert sum("Agent Skill" in r for r in reasons) == 2, reasons
    assert asyncio.run(workspace.read_text(f"{skill_demo.FOLDER}/SKILL.md")) == skill_demo.SKILL_MD


def test_the_first_screen_offers_it() -> None:
    assert {"prompt": PROMPT, "detail": "finds an Agent Skill, loads it, runs its script"} in examples()


@pytest.mark.parametrize(
    ("text", "name"),
    [("/word-report now", "word-report"), ("  /pdf", "pdf"), ("/usr/bin/x", None), ("say /pdf", None)],
)
def test_the_command_names_a_skill_only_at_the_start(text: str, name: str | None) -> None:
    assert command_name(text) == name


async def test_a_slash_command_attaches_the_skill_to_the_message() -> None:
    workspace = await workspace_with(dict(skill_demo.EXAMPLE))
    layers = await message_layers("/word-report for the notes", TurnOptions(), workspace, None)
    assert [r.path for r in layers.references] == [f"{skill_demo.FOLDER}/SKILL.md"]
    assert "# Word report" in layers.references[0].content
    plain = await message_layers("/nothing here", TurnOptions(), workspace, None)
    assert plain.references == []
