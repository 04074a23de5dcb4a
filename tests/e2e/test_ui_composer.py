"""The composer against the scripted endpoint: `@` offers the workspace's files (arrow keys, Enter and
Tab pick, Escape closes) and the picked files' contents reach the model; the tool picker forces the next
turn's tool through `tool_choice` until the model has called it, then goes back to "any tool"."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
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


SLOW_PIECES = [f"word{n} " for n in range(40)]


def slow_reply() -> Scripted:
    """A reply that streams for seconds: long enough to press a key while it streams."""
    return Scripted(chunks=text_chunks(*SLOW_PIECES), delay=0.1)


def streaming_reply(page: Page, index: int) -> Any:
    """The index-th assistant message, once its first words have arrived."""
    reply = page.locator("[data-testid=message][data-role=assistant]").nth(index)
    expect(reply).to_contain_text("word0", timeout=WAIT_MS)
    return reply


def test_escape_stops_the_turn_only_from_the_chat(page: Page, origin: str, model_server: ModelServer) -> None:
    start(page, origin, model_server)
    model_server.script(*[slow_reply() for _ in range(4)])
    page.evaluate("window.agentlite.vfs.writeText('/notes.txt', 'some notes\\n')")
    page.locator("[data-testid=file-item][data-path='/notes.txt'] .file-row").click()
    expect(page.locator("[data-testid=file-view]")).to_have_attribute(
        "data-path", "/notes.txt", timeout=WAIT_MS
    )

    page.fill(INPUT, "first")
    page.press(INPUT, "Enter")
    reply = streaming_reply(page, 0)
    page.press(INPUT, "Escape")
    expect(reply).to_have_attribute("data-state", "interrupted", timeout=WAIT_MS)
    wait_idle(page)

    page.fill(INPUT, "second")
    page.press(INPUT, "Enter")
    reply = streaming_reply(page, 1)
    page.click("[data-testid=chat-stop]")
    expect(reply).to_have_attribute("data-state", "interrupted", timeout=WAIT_MS)
    wait_idle(page)

    page.fill(INPUT, "third")
    page.press(INPUT, "Enter")
    reply = streaming_reply(page, 2)
    page.locator("[data-testid=file-view]").click()
    page.keyboard.press("Escape")
    assert reply.get_attribute("data-state") == "streaming"  # Esc came while it streamed ...
    expect(reply).to_have_attribute("data-state", "done", timeout=WAIT_MS)  # ... and did not stop it
    wait_idle(page)

    page.fill(INPUT, "fourth")
    page.press(INPUT, "Enter")
    reply = streaming_reply(page, 3)
    page.click("[data-testid=settings-open]")
    expect(page.locator("dialog.settings")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog.settings")).to_be_hidden()
    assert reply.get_attribute("data-state") == "streaming"
    expect(reply).to_have_attribute("data-state", "done", timeout=WAIT_MS)
    expect(reply).to_contain_text("word39")


RECORD_SENDS = """
window.__sends = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  const send = message && message.type === "call" && message.method === "chats.send";
  if (send) window.__sends.push(message.args);
  return post.call(this, message, ...rest);
};
"""


def test_chat_mode_sends_no_forced_tool(page: Page, origin: str, model_server: ModelServer) -> None:
    page.add_init_script(RECORD_SENDS)
    start(page, origin, model_server)
    model_server.script(Scripted(chunks=text_chunks("Just talking.")))
    page.select_option(PICKER, "read_file")
    page.click("[data-testid=mode-toggle]")
    expect(page.locator(PICKER)).to_be_disabled()
    page.fill(INPUT, "tell me something")
    page.press(INPUT, "Enter")
    wait_idle(page)
    sends = page.evaluate("window.__sends")
    assert [s["mode"] for s in sends] == ["chat"]
    assert "tool" not in sends[0], sends[0]
    body = model_server.completions()[0].body
    assert "tool_choice" not in body and "read_file" not in json.dumps(body["messages"])
    page.click("[data-testid=mode-toggle]")  # Plan mode: no forced tool either
    expect(page.locator(PICKER)).to_be_disabled()
    page.click("[data-testid=mode-toggle]")  # the choice waits for the next Agent turn
    expect(page.locator(PICKER)).to_have_value("read_file")
