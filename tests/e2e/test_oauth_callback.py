"""The sign-in callback page (web/oauth-callback.html) in Chromium: opened as the app opens it (a popup
without an opener) with the authorization server's answer, it hands code and state to the page over the
BroadcastChannel only, takes the code out of its address, runs under its CSP with no error, and closes.
The page's client metadata document is served as JSON."""

from __future__ import annotations

import json

from playwright.sync_api import Page

POPUP = "popup,noopener,noreferrer,width=520,height=680"  # as web/src/mcp/page/mcp-signin.js opens it
LISTEN = """() => {
  window.answers = [];
  const channel = new BroadcastChannel("agentlite-oauth");
  channel.onmessage = (event) => window.answers.push({ via: "channel", data: event.data });
  window.addEventListener("message", (event) =>
    window.answers.push({ via: "opener", origin: event.origin, data: event.data }));
}"""


def test_the_callback_hands_the_answer_to_its_opener_and_closes(page: Page, origin: str) -> None:
    document = page.goto(f"{origin}/oauth/client.json")
    assert document is not None and document.headers["content-type"].startswith("application/json")
    assert json.loads(document.text())["redirect_uris"][0].endswith("/oauth-callback.html")
    page.evaluate(LISTEN)
    errors: list[str] = []
    page.context.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    with page.expect_popup() as opened:
        page.evaluate(
            f"() => {{ window.open('/oauth-callback.html?code=C-1&state=S-1', '_blank', {POPUP!r}); }}"
        )
    popup = opened.value
    page.wait_for_function("() => window.answers.length >= 1", timeout=15_000)
    if not popup.is_closed():
        popup.wait_for_event("close", timeout=15_000)  # it has posted everything it will post
    answers = page.evaluate("() => window.answers")
    assert answers == [{"via": "channel", "data": {"type": "agentlite-oauth", "state": "S-1", "code": "C-1"}}]
    assert errors == []


def test_a_refusal_is_handed_back_as_an_error(page: Page, origin: str) -> None:
    page.goto(f"{origin}/oauth/client.json")
    page.evaluate(LISTEN)
    with page.expect_popup():
        refused = "/oauth-callback.html?error=access_denied&error_description=no&state=S-2"
        page.evaluate(f"() => {{ window.open('{refused}', '_blank', {POPUP!r}); }}")
    page.wait_for_function("() => window.answers.length >= 1", timeout=15_000)
    data = page.evaluate("() => window.answers[0].data")
    assert data == {"type": "agentlite-oauth", "state": "S-2", "error": "access_denied", "description": "no"}
