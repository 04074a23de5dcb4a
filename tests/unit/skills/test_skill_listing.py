"""What the model sees of the skills: names and descriptions of the valid ones within 2% of the window,
in a message AFTER the stable prefix (system prompt, AGENTS.md), read again before each request."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.tokens import TokenCounter
from agentlite.skills import skill_discovery
from agentlite.skills.skill_listing import budget_for, read_listing, render, skills_message
from agentlite.skills.skill_rules import Skill
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import Harness, say

COUNT = TokenCounter().text


def skill(
    n: int, description: str = "Does one particular thing well. Use it when that thing comes up."
) -> Skill:
    return Skill(f"skill-{n:03d}", f"/.agents/skills/skill-{n:03d}", description)


def skill_md(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"


def test_only_valid_skills_are_listed_with_name_and_description() -> None:
    broken = Skill("bad", "/.agents/skills/bad", "Never shown", reason="the name is wrong")
    text = render([skill(1), broken], budget_for(32_768), COUNT)
    assert "- skill-001: Does one particular thing well." in text
    assert "bad" not in text and "Never shown" not in text
    assert "load_skill" in text and "shell_exec" in text
    assert render([broken], 10_000, COUNT) == ""


@given(st.integers(0, 120), st.integers(4_000, 200_000), st.integers(0, 1024))
@settings(max_examples=80, deadline=None)
def test_the_listing_never_costs_more_than_its_budget(count: int, window: int, length: int) -> None:
    skills = [skill(n, "word " * (length // 5)) for n in range(count)]
    text = render(skills, budget_for(window), COUNT)
    if text:
        assert COUNT(skills_message(text)[0]["content"]) <= max(budget_for(window), 200)


def test_descriptions_are_cut_before_any_skill_is_left_out() -> None:
    long = "A long description of what this skill does and when. " * 18  # ~1,000 characters
    text = render([skill(n, long) for n in range(15)], budget_for(32_768), COUNT)
    assert "…" in text and all(f"- skill-{n:03d}: A long" in text for n in range(15))
    assert "more skills are not listed" not in text


def test_past_the_shortest_cut_the_rest_are_counted_in_a_note() -> None:
    text = render([skill(n, "word " * 200) for n in range(100)], budget_for(32_768), COUNT)
    assert "- skill-000: word" in text and "- skill-099" not in text
    left = int(text.split("- (", 1)[1].split(" ", 1)[0])
    assert 0 < left < 100 and text.count("\n- skill-") == 100 - left
    assert "call load_skill" in text


def run_turns(files: list[dict[str, str]]) -> list[dict[str, Any]]:
    """One turn per dict; before each, the workspace is given those files."""
    harness = Harness([say(f"answer {i}") for i in range(len(files))])

    async def scenario() -> None:
        workspace = await Workspace.open(MemoryStorage())
        harness.setup(workspace=workspace)
        for n, written in enumerate(files):
            for path, text in written.items():
                await workspace.write(path, text)
            await harness.turn(f"question {n}")

    asyncio.run(scenario())
    return harness.requests()


def test_the_prefix_before_the_listing_is_byte_identical_with_and_without_skills() -> None:
    agents = {"/AGENTS.md": "Use tabs."}
    with_skill = {"/.agents/skills/pdf/SKILL.md": skill_md("pdf", "Fills PDF forms.")}
    plain, skilled = run_turns([agents])[0], run_turns([{**agents, **with_skill}])[0]
    listing = next(i for i, m in enumerate(skilled["messages"]) if str(m["content"]).startswith("<skills>"))
    assert listing == 2, "system prompt, AGENTS.md, then the listing"
    assert "- pdf: Fills PDF forms." in skilled["messages"][listing]["content"]
    assert skilled["messages"][:listing] == plain["messages"][:listing]
    assert skilled["tools"] == plain["tools"], "the tools are the same either way"
    assert skilled["messages"][listing + 1]["content"].endswith("question 0"), "then the conversation"


def test_a_new_skill_is_seen_by_the_next_request() -> None:
    first, second = run_turns([{}, {"/.claude/skills/notes/SKILL.md": skill_md("notes", "Takes notes.")}])
    assert "<skills>" not in str(first["messages"])
    assert "- notes: Takes notes." in str(second["messages"])


async def test_an_unchanged_workspace_is_listed_without_parsing_or_rendering_again() -> None:
    workspace = await Workspace.open(MemoryStorage())
    for n in range(40):
        await workspace.write(f"/.agents/skills/s{n:02d}/SKILL.md", skill_md(f"s{n:02d}", "d" * 300))
    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return COUNT(text)

    first = await read_listing(workspace, 32_000, count)
    renders, parses = len(counted), skill_discovery.PARSED.parses
    assert renders >= 2 and parses == 40  # cut to fit: the whole listing did not
    assert await read_listing(workspace, 32_000, count) == first
    assert skill_discovery.PARSED.parses == parses, "no SKILL.md parsed again"
    assert len(counted) == renders + 1, "one count: the kept listing still fits"
    await workspace.write("/.agents/skills/s03/SKILL.md", skill_md("s03", "Changed."))
    assert "- s03: Changed." in await read_listing(workspace, 32_000, count)
    assert skill_discovery.PARSED.parses == parses + 1
