"""Hostile text the agent reads stays cheap: 40 skills whose SKILL.md holds a 16,000-space value do not
hold a request back (the frontmatter parser is linear and the listing is cached by content), and a
regex whose lookaround sits inside a repeat is refused (or searched in bounded pieces) instead of
holding the worker for minutes; after each, the agent keeps answering."""

from __future__ import annotations

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_reply

SKILLS = 40
SPACES = " " * 16_000


def hostile_skill(index: int) -> tuple[str, str]:
    name = f"spaces-{index:02d}"
    text = f"---\nname: {name}\ndescription: a{SPACES}b\n---\nNothing to do.\n"
    return f"/.agents/skills/{name}/SKILL.md", text


def nested_lookaround(depth: int) -> str:
    """`(?:(?!…)a)*[bc]` nested `depth` times: each level runs the one inside at every place."""
    inner = "a*[bc]"
    for _ in range(depth):
        inner = f"(?:(?!{inner})a)*[bc]"
    return inner


def test_forty_hostile_skills_do_not_hold_the_reply(app: Page) -> None:
    for index in range(SKILLS):
        vfs(app, "writeText", *hostile_skill(index))
    send(app, "hi")
    wait_reply(app, "AgentLite demo model")
    send(app, "hello again")
    wait_reply(app, "AgentLite demo model")
    assert app.locator("[data-testid=error-banner]").count() == 0


def test_a_lookaround_inside_a_repeat_is_refused_and_the_agent_answers(page: Page, origin: str) -> None:
    pattern = nested_lookaround(4)
    line = "a" * 1000 + "\n"
    with ModelServer() as server:
        server.script(
            Scripted(chunks=tool_call_chunks(("search", {"query": pattern, "regex": True}))),
            Scripted(chunks=tool_call_chunks(("read_file", {"path": "/a.txt"}))),
            Scripted(chunks=text_chunks("The search was refused; the file holds a line of a.")),
        )
        start(page, origin, server)
        vfs(page, "writeText", "/a.txt", line)
        send(page, "search the file")
        assert approve_through(page, card(page, "search")) in ("failed", "completed")
        assert approve_through(page, card(page, "read_file")) == "completed"
        wait_idle(page)
        results = tool_results(server)
    assert "lookaround" in results[0] or "No matches" in results[0] or "stopped" in results[0]
    assert "a" * 1000 in results[1]
