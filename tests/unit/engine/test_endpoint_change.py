"""A key entered while a refused request waits for the user is the key the retry sends."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from agentlite.engine.model_link import ModelLink
from agentlite.transport import ScriptedTransport
from tests.unit.engine.support import SETTINGS, Harness, answer_when, http, say


def test_the_retry_after_an_auth_error_uses_the_newly_saved_key() -> None:
    h = Harness([http(401, "bad key")])
    fixed = replace(SETTINGS, api_key="sk-new")
    later = ScriptedTransport.of(say("now it works"))

    def save_key_then_retry(chat: Any, _event: dict[str, Any]) -> None:
        assert h.engine is not None
        h.engine.endpoint_changed(ModelLink.of(fixed, later))
        chat.decide("retry")

    h.on_event = answer_when("decision", save_key_then_retry)(h)
    h.run()
    assert h.text() == "now it works"
    assert later.requests[0].headers["Authorization"] == "Bearer sk-new"
    assert h.transport is not None and len(h.transport.requests) == 1


def test_a_decision_without_new_settings_keeps_the_turns_endpoint() -> None:
    h = Harness([http(500), http(500), http(500), say("back")])
    h.on_event = answer_when("decision", lambda chat, _event: chat.decide("retry"))(h)
    h.run()
    assert h.text() == "back"
    assert h.transport is not None
    assert [r.headers["Authorization"] for r in h.transport.requests] == ["Bearer sk-test"] * 4
