"""The page's sign-in popup (web/src/mcp/page/mcp-signin.js) under Node: the callback's answer read from its
query; the popup opened cut from the page (`noopener`, `noreferrer`); the answer taken only from the
channel and only for the sign-in's own state, never from a window message; a refusal, a newer sign-in
and a timeout reject."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.node_json import run_node

RUNNER = Path(__file__).with_name("mcp_signin_runner.mjs")
POPUP = ["_blank", "popup,noopener,noreferrer,width=520,height=680"]


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


def test_the_popup_is_opened_without_an_opener_or_a_referrer() -> None:
    done = drive({"channel": "?code=C1&state=S1"})
    assert done["opened"] == [POPUP]
    features = POPUP[1].split(",")
    assert "noopener" in features and "noreferrer" in features


def test_the_answer_for_this_state_comes_over_the_channel() -> None:
    assert drive({"channel": "?code=OTHER&state=S2"}, {"channel": "?code=C1&state=S1"})["ok"] == {
        "code": "C1",
        "state": "S1",
    }
    assert drive({"channel": "?code=C1&state=S1&iss=https%3A%2F%2Fauth.test"})["ok"] == {
        "code": "C1",
        "state": "S1",
        "iss": "https://auth.test",
    }


def test_a_window_message_is_never_taken() -> None:
    """Not even from our own origin: nothing but the channel carries the answer."""
    done = drive({"window": "?code=C1&state=S1"})
    assert done["error"] == "the sign-in took too long"


def test_a_refusal_a_newer_sign_in_and_a_timeout_reject() -> None:
    refused = drive({"channel": "?error=access_denied&error_description=user%20said%20no&state=S1"})
    assert refused["error"] == "the authorization server refused the sign-in (access_denied: user said no)"
    replaced = drive("again", {"channel": "?code=C2&state=S2"})
    assert replaced["error"] == "another sign-in took its place"
    assert replaced["second"]["ok"] == {"code": "C2", "state": "S2"}
    assert drive()["error"] == "the sign-in took too long"
    scripted = run_node(RUNNER, [{"steps": [], "url": "javascript:alert(1)//?state=S1"}])[0]
    assert scripted == {"error": "the sign-in address is not a web address", "opened": []}


def test_the_urls_follow_the_page() -> None:
    urls = run_node(RUNNER, [{"urls": "https://tools.test/agentlite/index.html"}])[0]
    assert urls == {
        "redirectUri": "https://tools.test/agentlite/oauth-callback.html",
        "metadataDocumentUrl": "https://tools.test/agentlite/oauth/client.json",
    }
