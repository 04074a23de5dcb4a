"""Context limits that shrink: the window a refusal states is learnt and the retry provably fits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentlite.engine.history import Message
from agentlite.engine.shrink import Overflow, stated_overflow
from agentlite.engine.tokens import TokenCounter
from tests.unit.engine.support import SETTINGS, Harness, answer_when, http, say

OPENAI = (
    "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. "
    "Please reduce the length of the messages."
)
LOG = "".join(
    f"{i:05d} worker {i % 7} finished batch {i * 13} in {i % 97} ms, status ok\n" for i in range(400)
)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (OPENAI, Overflow(4097, 4294)),
        ("request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it",
         Overflow(4096, 5000)),
        ("This model's maximum context length is 8,192 tokens. However, you requested 9,001 tokens",
         Overflow(8192, 9001)),
        ("maximum context length exceeded", Overflow(None, None)),
    ],
)  # fmt: skip
def test_the_window_and_the_refused_size_are_read_from_the_error(message: str, expected: Overflow) -> None:
    assert stated_overflow(message) == expected


def _six_message_history(h: Harness) -> None:
    """A previous turn that read a long log (user, call, result, answer) before this turn's request."""
    chat = h.setup()
    call = {"id": "c0", "name": "read_file", "arguments": {"path": "/build.log"}}
    chat.add(Message("user", "read /build.log", turn="t0"))
    chat.add(Message("assistant", "", tool_calls=[call], turn="t0"))
    chat.add(Message("tool", LOG, tool_call_id="c0", name="read_file", turn="t0"))
    chat.add(Message("assistant", "The build log lists 400 finished batches.", turn="t0"))


def _size(body: dict[str, Any]) -> int:
    counter = TokenCounter()
    return counter.messages(body["messages"]) + counter.text(json.dumps(body.get("tools") or []))


def test_a_refusal_that_states_the_window_makes_a_retry_that_shrinks_and_fits() -> None:
    h = Harness([http(400, OPENAI), say("fits now")])
    _six_message_history(h)
    h.run("which batch was slowest?")
    refused, retry = h.requests()
    assert len(refused["messages"]) == 6 and retry != refused
    scale = 4294 / _size(refused)  # the server's count of our request, as it stated it
    assert _size(retry) * scale <= 4097, "the retry fits the stated window"
    assert retry["messages"][0] == refused["messages"][0], "the system prompt is never dropped"
    assert retry["messages"][-1]["content"].endswith("which batch was slowest?")
    assert "00399 worker" not in json.dumps(retry), "the old tool result went first"
    assert h.text() == "fits now"
    assert h.chat is not None and len(h.chat.messages) == 6, "nothing was deleted"
    assert h.engine is not None and h.engine.windows[(SETTINGS.base_url, SETTINGS.model)] == 4097


def test_the_learnt_window_shapes_the_next_turn_before_any_refusal() -> None:
    h = Harness([http(400, OPENAI), say("fits now"), say("again")])
    _six_message_history(h)
    h.run("which batch was slowest?")
    h.run("and the fastest?")
    assert len(h.requests()) == 3 and h.text().endswith("again")
    assert h.of("context")[-1]["window"] == 4097, "the next turn counts against the stated window"


def test_a_request_that_cannot_shrink_is_not_resent_the_user_decides() -> None:
    h = Harness([http(400, "maximum context length is 50 tokens, resulted in 900 tokens")])
    h.on_event = answer_when("decision", lambda chat, _event: chat.decide("cancel"))(h)
    h.run("hello")
    assert len(h.requests()) == 1, "an identical body is never resent"
    assert h.of("decision")[0]["error_type"] == "context_length"


def test_an_unstated_window_still_changes_the_retry_of_a_short_history() -> None:
    h = Harness([http(400, "maximum context length exceeded"), say("fits now")])
    _six_message_history(h)
    h.run("which batch was slowest?")
    refused, retry = h.requests()
    assert retry != refused and _size(retry) < _size(refused)
    assert h.text() == "fits now"


def test_a_window_from_the_listing_shrinks_a_short_history_before_sending() -> None:
    h = Harness([say("fits")])
    _six_message_history(h)
    assert h.chat is not None
    h.chat.configure(context_window=4097)
    h.run("which batch was slowest?")
    (sent,) = h.requests()
    assert "00399 worker" not in json.dumps(sent) and h.text() == "fits"


def test_an_empty_stream_is_retried_with_a_shorter_request() -> None:
    """llama-cpp-python answers a streamed request longer than its window with 200 and no body."""
    from agentlite.transport import ScriptedResponse

    h = Harness([ScriptedResponse(body=[]), say("fits now")])
    _six_message_history(h)
    h.run("which batch was slowest?")
    refused, retry = h.requests()
    assert _size(retry) <= 0.75 * _size(refused)
    assert "Your last reply was empty" not in json.dumps(retry), "no nudge: the model never saw it"
    assert h.text() == "fits now"
