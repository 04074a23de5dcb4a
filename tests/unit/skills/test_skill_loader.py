"""load_skill: a skill's body without its frontmatter and its files; a file only from inside its own
folder; an unknown or invalid name is a tool error that lists the valid names."""

from __future__ import annotations

from typing import Any

import pytest

from agentlite.demo import skill_demo
from agentlite.tools.result import ToolResult
from tests.unit.tools.conftest import REGISTRY, context_with

FILES = {
    **dict(skill_demo.EXAMPLE),
    "/.agents/skills/word-report/references/guide.md": "Count carefully.\n",
    "/.agents/skills/word-report/logo.png": b"\x89PNG\r\n\x1a\n\x00\x00",
    "/.claude/skills/other/SKILL.md": "---\nname: other\ndescription: Another.\n---\nSecret body.\n",
    "/.claude/skills/Broken/SKILL.md": "---\nname: Broken\ndescription: x\n---\n",
    "/secret.txt": "not for skills\n",
}


async def load(**arguments: Any) -> ToolResult:
    return await REGISTRY.call("load_skill", arguments, await context_with(FILES))


async def test_the_body_without_frontmatter_and_the_other_files() -> None:
    result = await load(name="word-report")
    assert result.code == 0
    assert "# Word report" in result.message and "description:" not in result.message
    assert "- scripts/report.py" in result.message and "- references/guide.md" in result.message
    assert "shell_exec" in result.message


async def test_a_file_of_the_skill() -> None:
    result = await load(name="word-report", file="references/guide.md")
    assert result.code == 0 and "Count carefully." in result.message


@pytest.mark.parametrize(
    "file",
    [
        "../other/SKILL.md",
        "../../../secret.txt",
        "/secret.txt",
        "references/../../other/SKILL.md",
        "./../other/SKILL.md",
        "C:/secret.txt",
        "~/secret.txt",
        "a\\..\\..\\secret.txt",
    ],
)
async def test_a_file_outside_the_skill_is_refused(file: str) -> None:
    result = await load(name="word-report", file=file)
    assert result.code == 1 and result.error_type == "invalid_argument", result.message
    assert "not inside the skill's folder" in result.message
    assert "Secret body" not in result.message and "not for skills" not in result.message


async def test_missing_and_binary_files_are_tool_errors() -> None:
    missing = await load(name="word-report", file="nope.md")
    assert missing.code == 1 and "scripts/report.py" in missing.message
    binary = await load(name="word-report", file="logo.png")
    assert binary.code == 1 and "binary" in binary.message


@pytest.mark.parametrize("name", ["nope", "Broken", "../word-report", ""])
async def test_an_unknown_or_invalid_name_lists_the_valid_ones(name: str) -> None:
    result = await load(name=name)
    assert result.code == 1
    if name:
        assert "The skills are: other, word-report." in result.message
    if name == "Broken":
        assert "is not valid" in result.message


def test_it_reads_and_says_scripts_run_with_shell_exec() -> None:
    tool = REGISTRY.get("load_skill")
    assert tool is not None and tool.risk == "read" and "shell_exec" in tool.description
