"""A message to the demo model streams into an assistant message: streaming -> done, text growing."""

from __future__ import annotations

from playwright.sync_api import Page

RECORD = """
window.__record = {states: [], lengths: []};
new MutationObserver(() => {
  const m = document.querySelector('[data-testid=message][data-role=assistant]');
  if (!m) return;
  const r = window.__record;
  if (r.states.at(-1) !== m.dataset.state) r.states.push(m.dataset.state);
  const n = m.innerText.length;
  if (r.lengths.at(-1) !== n) r.lengths.push(n);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_demo_reply_streams_then_completes(app: Page) -> None:
    app.evaluate(RECORD)
    app.fill("[data-testid=chat-input]", "hello")
    app.click("[data-testid=chat-send]")
    reply = app.locator("[data-testid=message][data-role=assistant]")
    reply.and_(app.locator("[data-state=done]")).wait_for(timeout=60_000)
    record = app.evaluate("window.__record")
    assert record["states"] == ["streaming", "done"]
    assert len(record["lengths"]) >= 5, "the reply arrived in one piece, not streamed"
    assert record["lengths"] == sorted(record["lengths"])
    assert "demo model" in reply.inner_text()
    assert app.locator("[data-testid=message][data-role=user] .message-body").inner_text() == "hello"


def test_enter_sends_and_shift_enter_adds_a_line(app: Page) -> None:
    box = app.locator("[data-testid=chat-input]")
    box.fill("first line")
    box.press("Shift+Enter")
    box.type("second line")
    assert box.input_value() == "first line\nsecond line"
    box.press("Enter")
    assert box.input_value() == ""
    user = app.locator("[data-testid=message][data-role=user] .message-body")  # not its restore button
    assert user.inner_text() == "first line\nsecond line"
    app.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=60_000)
