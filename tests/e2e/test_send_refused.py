"""A message the agent refuses never leaves the chat waiting: the chat says why and takes the next one.
The refusal is made real: the page's messages to the agent worker get an argument the agent does not
know, so the worker answers `chats.send` with an error, as it would for any message it cannot take."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_app, send

WAIT_MS = 120_000

# Before any script of the page: a switch that spoils the next `chats.send` on its way to the worker.
SPOIL_NEXT_SEND = """(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (window.spoilNextSend && message && message.method === "chats.send") {
      window.spoilNextSend = false;
      message = { ...message, args: { ...message.args, unheard_of: 1 } };
    }
    return post.call(this, message, ...rest);
  };
})();"""


def test_a_refused_message_is_said_and_the_chat_goes_on(page: Page, origin: str) -> None:
    page.add_init_script(SPOIL_NEXT_SEND)
    open_app(page, origin)
    page.evaluate("window.spoilNextSend = true")
    send(page, "hello")
    banner = page.locator("[data-testid=error-banner]")
    expect(banner).to_contain_text("did not reach the agent", timeout=WAIT_MS)
    expect(banner).to_contain_text("unheard_of")
    expect(page.locator("[data-testid=chat-stop]")).to_be_hidden()
    send(page, "hello")  # the chat is free: the next message is answered
    answer = page.locator("[data-testid=message][data-role=assistant][data-state=done]")
    expect(answer).to_have_count(1, timeout=WAIT_MS)
