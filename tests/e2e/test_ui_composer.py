"""The composer against the scripted endpoint: `@` offers the workspace's files (arrow keys, Enter and
Tab pick, Escape closes) and the picked files' contents reach the model; the tool picker forces the next
turn's tool through `tool_choice` until the model has called it, then goes back to "any tool"."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from buildsys.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.scripted_support import start, wait_idle

INPUT = "[data-testid=chat-input]"
LIST = "[data-testid=mention-list]"
OPTIONS = f"{LIST} [data-testid=mention-option]"
PICKER = "[data-testid=tool-picker]"
WAIT_MS = 60_000
SPACED = "/docs/release notes.md"  # a name the `@path` pattern of the message text cannot read whole
FILES = {"/src/alpha.ts": "ALPHA-7f3a", "/src/beta.ts": "BETA-19c2", SPACED: "NOTES-88d1"}


def write_files(page: Page) -> None:
    for path, text in FILES.items():
        page.evaluate("([p, t]) => window.agentlite.vfs.writeText(p, t)", [path, text])


def user_content(body: dict[str, Any]) -> str:
    return json.dumps([m for m in body["messages"] if m["role"] == "user"])


def test_mentions_autocomplete_and_attach_the_files(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start(page, origin, model_server)
    model_server.script(Scripted(chunks=text_chunks("Read them.")))
    write_files(page)
    field = page.locator(INPUT)
    field.press_sequentially("Compare @src")
    expect(page.locator(OPTIONS)).to_have_count(2, timeout=WAIT_MS)
    expect(field).to_have_attribute("aria-expanded", "true")
    expect(page.locator(OPTIONS).first).to_have_attribute("aria-selected", "true")
    field.press("ArrowDown")
    expect(page.locator(OPTIONS).nth(1)).to_have_attribute("aria-selected", "true")
    chosen = page.locator(OPTIONS).nth(1).get_attribute("data-path")
    assert chosen in FILES
    field.press("Enter")
    expect(page.locator(LIST)).to_be_hidden()
    expect(field).to_have_value(f"Compare @{chosen} ")

    field.press_sequentially("with @rel")
    expect(page.locator(OPTIONS)).to_have_count(1, timeout=WAIT_MS)
    expect(page.locator(OPTIONS)).to_have_attribute("data-path", SPACED)
    field.press("Tab")
    expect(field).to_have_value(f"Compare @{chosen} with @{SPACED} ")
    expect(field).to_be_focused()

    field.press_sequentially("not @beta")
    expect(page.locator(OPTIONS)).to_have_count(1, timeout=WAIT_MS)
    field.press("Escape")
    expect(page.locator(LIST)).to_be_hidden()
    expect(field).to_have_value(f"Compare @{chosen} with @{SPACED} not @beta")
    field.press("Enter")  # the list is closed: Enter sends
    wait_idle(page)

    sent = user_content(model_server.completions()[0].body)
    assert FILES[chosen] in sent and FILES[SPACED] in sent
    other = "/src/alpha.ts" if chosen == "/src/beta.ts" else "/src/beta.ts"
    assert FILES[other] not in sent


def test_the_tool_picker_forces_the_next_turns_tool(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start(page, origin, model_server)
    model_server.script(
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/src/alpha.ts"}))),
        Scripted(chunks=text_chunks("It says hello.")),
    )
    write_files(page)
    picker = page.locator(PICKER)
    expect(picker).to_have_attribute("aria-label", "Tool for the next turn")
    names = picker.locator("option").all_inner_texts()
    assert names[0] == "any tool" and {"read_file", "write_file", "shell_exec"} <= set(names)
    picker.select_option("read_file")
    page.fill(INPUT, "what is in alpha?")
    page.press(INPUT, "Enter")
    expect(picker).to_have_value("")
    card = page.locator("[data-testid=tool-card][data-tool=read_file]")
    expect(card).to_have_attribute("data-status", "completed", timeout=WAIT_MS)
    wait_idle(page)

    page.fill(INPUT, "and now?")
    page.press(INPUT, "Enter")
    wait_idle(page)
    choices = [r.body.get("tool_choice") for r in model_server.completions()]
    forced = {"type": "function", "function": {"name": "read_file"}}
    assert choices == [forced, "auto", "auto"]

    page.click("[data-testid=mode-toggle]")
    expect(picker).to_be_disabled()
