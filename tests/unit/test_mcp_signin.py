"""The page's sign-in popup (web/src/mcp-signin.js) under Node: the callback's answer read from its
query, taken only from our own origin and only for the sign-in's own state; a refusal, a blocked or
closed popup and a timeout reject."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.unit.node_json import run_node

RUNNER = Path(__file__).with_name("mcp_signin_runner.mjs")
ORIGIN = "https://page.test"


def drive(*steps: Any) -> dict[str, Any]:
    return run_node(RUNNER, [{"steps": list(steps)}])[0]


def test_the_callback_query_becomes_an_answer() -> None:
    read = run_node(
        RUNNER,
        [{"read": "?code=C1&state=S1"}, {"read": "?error=access_denied&error_description=no&state=S1"}],
    )
    assert read[0] == {"type": "agentlite-oauth", "state": "S1", "code": "C1"}
    assert read[1] == {
        "type": "agentlite-oauth",
        "state": "S1",
        "error": "access_denied",
        "description": "no",
    }


def test_the_answer_for_this_state_comes_over_the_channel() -> None:
    assert drive({"channel": "?code=OTHER&state=S2"}, {"channel": "?code=C1&state=S1"}) == {
        "ok": {"code": "C1", "state": "S1"}
    }
    assert drive({"channel": "?code=C1&state=S1&iss=https%3A%2F%2Fauth.test"}) == {
        "ok": {"code": "C1", "state": "S1", "iss": "https://auth.test"}
    }


def test_a_window_message_is_taken_from_our_own_origin_only() -> None:
    forged = {"window": {"search": "?code=EVIL&state=S1", "origin": "https://evil.test"}}
    ours = {"window": {"search": "?code=C1&state=S1", "origin": ORIGIN}}
    assert drive(forged, ours) == {"ok": {"code": "C1", "state": "S1"}}


def test_a_refusal_a_closed_or_blocked_popup_and_a_timeout_reject() -> None:
    refused = drive({"channel": "?error=access_denied&error_description=user%20said%20no&state=S1"})
    assert refused == {"error": "the authorization server refused the sign-in (access_denied: user said no)"}
    assert "closed before" in drive("close")["error"]
    assert "blocked" in drive("blocked")["error"]
    assert drive()["error"] == "the sign-in took too long"
    scripted = run_node(RUNNER, [{"steps": [], "url": "javascript:alert(1)//?state=S1"}])[0]
    assert scripted == {"error": "the sign-in address is not a web address"}


def test_the_urls_follow_the_page() -> None:
    urls = run_node(RUNNER, [{"urls": "https://tools.test/agentlite/index.html"}])[0]
    assert urls == {
        "redirectUri": "https://tools.test/agentlite/oauth-callback.html",
        "metadataDocumentUrl": "https://tools.test/agentlite/oauth/client.json",
    }
