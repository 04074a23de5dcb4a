"""AGENTS.md in the browser: `/AGENTS.md` is a message right after the system prompt in every request of
every chat, an edit (here the agent's own, mid-turn) applies from the next request, and the context meter
shows its share."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs


def instructions(body: dict[str, Any]) -> str:
    """The text of the request's second message when it is the AGENTS.md layer, else ""."""
    messages = body["messages"]
    assert messages[0]["role"] == "system"
    second = str(messages[1].get("content") or "")
    return second if second.startswith("<project-instructions>") else ""


def test_agents_md_goes_with_every_request_and_an_edit_applies_next(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(("write_file", {"path": "/AGENTS.md", "content": "Rule two: tabs."}))
        ),
        Scripted(chunks=text_chunks("Done.")),
        Scripted(chunks=text_chunks("Second chat.")),
    )
    start(page, origin, model_server)
    vfs(page, "writeText", "/AGENTS.md", "Rule one: spaces.")
    send(page, "Switch the rule to tabs")
    approve_through(page, card(page, "write_file"))
    wait_idle(page)
    first, second = (r.body for r in model_server.completions()[:2])
    assert "Rule one: spaces." in instructions(first)
    assert "Rule two: tabs." in instructions(second) and "Rule one" not in str(second)
    assert first["messages"][0] == second["messages"][0]  # the system prompt never changes
    shown = page.wait_for_selector(
        "#context-meter[data-instructions]:not([data-instructions=''])", timeout=WAIT_MS
    )
    assert shown is not None and int(shown.get_attribute("data-instructions") or 0) > 0
    assert "AGENTS.md" in shown.inner_text()

    page.locator("[data-testid=chat-tab-new]").click()
    send(page, "Hello from another chat")
    wait_idle(page)
    assert "Rule two: tabs." in instructions(model_server.completions()[-1].body)
