"""The approval card of a command shows the whole command, with its line count, before Approve: a long
shell script cannot hide a dangerous last line in a scroll box."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import start, wait_idle
from tests.e2e.test_demo_scenarios import FINAL, card, wait_status

LONG_COMMAND = "\n".join([*(f"echo step {n}" for n in range(1, 40)), "rm -rf / # the dangerous last line"])

# The first box between the element and the chat's own scroller that shows less than its content.
CLIPPING_BOX = """(el) => {
  for (let node = el; node && !node.classList.contains('messages'); node = node.parentElement) {
    const hidden = getComputedStyle(node).display === 'none';
    if (hidden || node.scrollHeight > node.clientHeight + 1) return node.className || node.tagName;
  }
  return null;
}"""

# The last line, scrolled to as a reader would: is its text inside the box and on screen?
LAST_LINE_SEEN = """(el) => {
  const text = el.firstChild;
  const range = document.createRange();
  range.setStart(text, text.data.lastIndexOf('\\n') + 1);
  range.setEnd(text, text.data.length);
  el.scrollIntoView({block: 'end'});
  const line = range.getBoundingClientRect();
  const box = el.getBoundingClientRect();
  const inBox = line.height > 0 && line.top >= box.top && line.bottom <= box.bottom + 1;
  const onScreen = line.top >= 0 && line.bottom <= window.innerHeight;
  return inBox && onScreen && document.elementFromPoint(line.left + 2, line.top + line.height / 2) === el;
}"""


def asking_to_run(page: Page, origin: str, server: ModelServer, command: str) -> Locator:
    """The card of a `shell_exec` of `command` the model asked for, waiting for approval."""
    server.script(
        Scripted(chunks=tool_call_chunks(("shell_exec", {"command": command}))),
        Scripted(chunks=text_chunks("It ran.")),
    )
    start(page, origin, server)
    send(page, "run it")
    shell = card(page, "shell_exec")
    assert wait_status(page, shell, {"awaiting-approval", *FINAL}) == "awaiting-approval"
    return shell


def test_a_long_command_is_shown_whole_with_its_line_count(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    shell = asking_to_run(page, origin, model_server, LONG_COMMAND)
    expect(shell.locator("[data-testid=tool-command-lines]")).to_have_text("40 lines")
    command = shell.locator("[data-testid=tool-command]")
    expect(command).to_have_text(LONG_COMMAND)
    assert command.evaluate(CLIPPING_BOX) is None, "the command is shown at its full height"
    assert command.evaluate(LAST_LINE_SEEN), "the dangerous last line can be seen"
    # The keyboard still approves: Tab from what comes before the card reaches it, Enter approves.
    page.locator("[data-testid=restore-turn]").last.focus()
    page.keyboard.press("Tab")
    assert shell.evaluate("(el) => document.activeElement === el")
    page.keyboard.press("Enter")
    assert wait_status(page, shell, FINAL) == "completed"
    wait_idle(page)


def test_a_one_line_command_says_one_line(page: Page, origin: str, model_server: ModelServer) -> None:
    shell = asking_to_run(page, origin, model_server, "echo hi\n")
    expect(shell.locator("[data-testid=tool-command-lines]")).to_have_text("1 line")
    shell.locator("[data-testid=tool-reject]").click()
    assert wait_status(page, shell, FINAL) == "rejected"
