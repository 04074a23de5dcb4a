"""Context limits that shrink: the window a refusal states is learnt and the retry provably fits."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agentlite.engine.history import Message
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import ChatSession
from agentlite.engine.shrink import SAFETY, SHRINK_UNSTATED, Overflow, stated_overflow
from agentlite.engine.tokens import TokenCounter
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport
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
    assert h.engine is not None and h.engine.server_counts.window((SETTINGS.base_url, SETTINGS.model)) == 4097


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
    assert "Nothing more could be cut" in h.of("decision")[0]["message"]


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


class CountingServer:
    """A server that counts `factor` times our count (another tokenizer, tool schemas in its template)
    and refuses a request over its window, stating the window and, when `states_size`, its count."""

    def __init__(self, factor: float, window_share: float, states_size: bool = True) -> None:
        self.factor, self.window_share, self.states_size = factor, window_share, states_size
        self.window = 0  # set from the first request: `window_share` of our count of it

    def __call__(self, request: HttpRequest) -> ScriptedResponse:
        body = request.body or {}
        ours = _size(body)
        self.window = self.window or int(ours * self.window_share)
        counted = int(ours * self.factor)
        if counted <= self.window:
            return say(f"fits at {counted}")
        size = f" However, your messages resulted in {counted} tokens." if self.states_size else ""
        return http(400, f"This model's maximum context length is {self.window} tokens.{size}")


def test_a_refusal_whose_window_our_count_already_meets_gets_a_smaller_attempt_that_fits() -> None:
    """The server counts 3× ours: our estimate fits its window, its count does not. Its count is the
    truth: the retry is cut until the scaled request fits, and the ratio is remembered."""
    server = CountingServer(factor=3, window_share=2.8)
    h = _cancelling(Harness(server))
    _six_message_history(h)
    h.run("which batch was slowest?")
    refused, retry = h.requests()
    assert _size(refused) <= server.window * SAFETY, "our own count fit the window"
    assert _size(retry) * 3 <= server.window * SAFETY, "scaled by the server's ratio, it fits with a margin"
    assert h.text().startswith("fits at") and not h.of("decision")
    assert h.engine is not None
    assert h.engine.server_counts.ratio((SETTINGS.base_url, SETTINGS.model)) == pytest.approx(3, rel=0.01)


def test_the_remembered_ratio_sizes_another_chats_first_request() -> None:
    server = CountingServer(factor=3, window_share=2.8)
    h = _cancelling(Harness(server))
    _six_message_history(h)
    h.run("which batch was slowest?")
    assert h.engine is not None and h.transport is not None
    other = h.engine.chat("c2", h._emit)
    call = {"id": "c9", "name": "read_file", "arguments": {"path": "/other.log"}}
    other.add(Message("user", "read /other.log", turn="t0"))
    other.add(Message("assistant", "", tool_calls=[call], turn="t0"))
    other.add(Message("tool", LOG, tool_call_id="c9", name="read_file", turn="t0"))
    other.add(Message("assistant", "Read it.", turn="t0"))
    other.configure(context_window=server.window)  # the window the listing gives, counted our way
    h.chat = other  # a decision in this chat is answered in this chat
    asyncio.run(_turn(other, h.transport, "and the fastest?"))
    third = h.requests()[2]
    assert int(_size(third) * 3) <= server.window, "sized in the server's count before any refusal"
    assert len(h.requests()) == 3 and h.text().count("fits at") == 2


def _cancelling(h: Harness) -> Harness:
    """A user who cancels when asked to decide (a turn that gives up ends instead of waiting)."""
    h.on_event = answer_when("decision", lambda chat, _event: chat.decide("cancel"))(h)
    return h


async def _turn(chat: ChatSession, transport: ScriptedTransport, text: str) -> None:
    chat.start_turn(text, ModelLink.of(SETTINGS, transport))
    assert chat.task is not None
    await chat.task


def test_a_stated_window_without_a_size_that_our_count_meets_still_cuts_by_a_step() -> None:
    server = CountingServer(factor=3, window_share=2.8, states_size=False)
    h = _cancelling(Harness(server))
    _six_message_history(h)
    h.run("which batch was slowest?")
    refused, retry, *_ = h.requests()
    assert _size(refused) <= server.window * SAFETY
    assert _size(retry) <= SHRINK_UNSTATED * _size(refused), "one real smaller attempt"
    assert h.text().startswith("fits at")


def test_the_user_is_told_when_a_smaller_attempt_was_refused_too() -> None:
    h = _cancelling(Harness(CountingServer(factor=40, window_share=1.0)))
    _six_message_history(h)
    h.run("which batch was slowest?")
    rounds = [body for body in h.requests() if body.get("tools")]  # not the summary request
    bodies = [json.dumps(body, sort_keys=True) for body in rounds]
    assert len(bodies) >= 2 and len(set(bodies)) == len(bodies), "never the same body twice"
    sizes = [_size(body) for body in rounds]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < sizes[0]
    (decision,) = h.of("decision")
    assert decision["error_type"] == "context_length" and "was refused too" in decision["message"]
