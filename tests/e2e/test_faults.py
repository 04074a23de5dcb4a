"""Faults of the model endpoint, end to end (issue 8 scenarios 1–4): what the user sees and that nothing
is lost. The scripted endpoint (buildsys/testing/model_server.py) drops the stream or answers with errors; the
requests it counts prove how often the engine sent, the page and the workspace prove what was kept.

The engine's strategy matrix (py/agentlite/engine/strategy.py) allows 2 automatic retries for rate
limits, network and server errors, none for a refused key; then the user decides.
"""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, failure, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, messages, start, wait_idle
from tests.e2e.test_demo_scenarios import FINAL, RECORD_RETRY_NOTICES, card, vfs, wait_reply, wait_status

RETRIES = 2  # the matrix's automatic retries for rate_limit / network / server
NOTES = "/notes/plan.md"
NOTES_TEXT = "# Plan\n\n- keep this\n"


def assistant_outcome(page: Page) -> list[tuple[str | None, str]]:
    """(state, text) of each assistant message shown (a round that failed before any output shows none)."""
    found = messages(page, "assistant").all()
    return [(m.get_attribute("data-state"), m.locator(".message-body").inner_text().strip()) for m in found]


def user_texts(request: Any) -> list[str]:
    """The user's words in a request (the context layer the engine puts before them left out)."""
    return [m["content"].rsplit("\n\n", 1)[-1] for m in request.body["messages"] if m["role"] == "user"]


def first_turn_writes_notes(page: Page, server: ModelServer) -> None:
    """A complete turn before the fault: the model creates a file and answers."""
    server.script(
        Scripted(chunks=tool_call_chunks(("create_file", {"path": NOTES, "content": NOTES_TEXT}))),
        Scripted(chunks=text_chunks("Wrote the plan.")),
    )
    send(page, "write the plan")
    assert wait_status(page, card(page, "create_file"), FINAL) == "completed"
    wait_reply(page, "Wrote the plan.")
    wait_idle(page)
    assert vfs(page, "readText", NOTES) == NOTES_TEXT


def assert_earlier_turn_intact(page: Page) -> None:
    assert vfs(page, "readText", NOTES) == NOTES_TEXT
    assert len(vfs(page, "history", NOTES)) == 1
    first = messages(page, "assistant").nth(1)  # round 1 called the tool, round 2 answered
    assert first.get_attribute("data-state") == "done"
    assert "Wrote the plan." in first.inner_text()
    assert messages(page, "user").first.inner_text().startswith("write the plan")


# --- 1. the stream drops after part of a reply ---------------------------------------------------------


def test_a_dropped_stream_keeps_the_partial_text_runs_no_tool_and_retries_once(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    partial = tool_call_chunks(
        ("create_file", {"path": "/dropped.txt", "content": "never written"}),
        text="Here is the partial answer",
        done=False,
    )
    # the text and the first half of the call's arguments arrive, then the connection is reset
    model_server.script(
        Scripted(chunks=partial, drop_after=2, delay=0.2),
        Scripted(chunks=text_chunks("The complete answer.")),
    )
    start(page, origin, model_server)
    send(page, "answer me")
    wait_reply(page, "The complete answer.")
    wait_idle(page)

    replies = messages(page, "assistant")
    assert replies.count() == 2, "one interrupted message and exactly one from the retry"
    assert replies.nth(0).get_attribute("data-state") == "interrupted"
    assert replies.nth(0).locator(".message-body").inner_text().strip() == "Here is the partial answer"
    assert replies.nth(1).get_attribute("data-state") == "done"
    assert messages(page, "user").count() == 1

    # no tool ran: the half-sent call created nothing and no card reached a running state
    assert vfs(page, "readText", "/dropped.txt") is None
    statuses = [c.get_attribute("data-status") for c in page.locator("[data-testid=tool-card]").all()]
    assert not {"executing", "completed"} & set(statuses), statuses

    sent = model_server.completions()
    assert len(sent) == 2, "the retry was sent exactly once"
    retry = sent[1].body["messages"]
    assert user_texts(sent[1]).count("answer me") == 1
    kept = [m for m in retry if m["role"] == "assistant"]
    assert [m.get("content") for m in kept] == ["Here is the partial answer"]
    assert not any(m.get("tool_calls") for m in retry), "the cut call was never replayed"
    print(f"measured: retry sent {sent[1].at - sent[0].at:.2f} s after the dropped request")


def test_retry_after_drops_that_used_up_the_retries_gives_exactly_one_new_reply(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    # every request drops after part of an answer (the last scripted response repeats)
    model_server.script(Scripted(chunks=text_chunks("Part ", "of an answer"), drop_after=1, delay=0.2))
    start(page, origin, model_server)
    send(page, "answer me")
    page.locator("[data-testid=decision-retry]").wait_for(timeout=WAIT_MS)
    assert page.locator("[data-testid=error-banner]").get_attribute("data-error-type") == "network"
    assert len(model_server.completions()) == 1 + RETRIES
    before = assistant_outcome(page)
    assert before and all(state == "interrupted" for state, _text in before), before

    model_server.queue[:] = [Scripted(chunks=text_chunks("The whole answer."))]
    page.click("[data-testid=decision-retry]")
    wait_reply(page, "The whole answer.")
    wait_idle(page)
    assert assistant_outcome(page) == [*before, ("done", "The whole answer.")], "exactly one new reply"
    assert len(model_server.completions()) == 2 + RETRIES, "the user's retry was sent once"
    assert messages(page, "user").count() == 1
    assert page.locator("[data-testid=decision-retry]").count() == 0


# --- 2. rate limits --------------------------------------------------------------------------------------


def retry_notices(page: Page) -> list[str]:
    return [n.inner_text() for n in page.locator(".notice.retry").all()]


def test_rate_limit_with_retry_after_waits_as_told_and_gives_one_reply(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        failure(429, "slow down", retry_after="2"),
        failure(429, "slow down", retry_after="1"),
        Scripted(chunks=text_chunks("Finally through.")),
    )
    start(page, origin, model_server)
    page.evaluate(RECORD_RETRY_NOTICES)
    send(page, "hello")
    wait_reply(page, "Finally through.")
    wait_idle(page)

    notices = page.evaluate("window.__retryNotices")
    assert len(notices) == RETRIES, notices
    assert retry_notices(page) == [], "the notices go once a retry answered"
    assert notices[0].startswith("Retrying (1/2) in 2 s") and "slow down" in notices[0]
    assert notices[1].startswith("Retrying (2/2) in 1 s")
    assert messages(page, "assistant").count() == 1
    assert messages(page, "user").count() == 1
    assert page.locator("[data-testid=error-banner]").count() == 0

    sent = model_server.completions()
    assert len(sent) == 1 + RETRIES
    assert all(user_texts(r) == ["hello"] for r in sent), "each retry is the same request"
    gaps = [b.at - a.at for a, b in itertools.pairwise(sent)]
    print(f"measured: gaps between requests with Retry-After 2, 1: {[f'{g:.2f}' for g in gaps]} s")
    # a lower bound on the server's own arrival times: the retries honoured Retry-After (never early)
    assert gaps[0] >= 1.9, f"the first retry came {gaps[0]:.2f} s after a Retry-After of 2 s"
    assert gaps[1] >= 0.9, f"the second retry came {gaps[1]:.2f} s after a Retry-After of 1 s"


def test_rate_limit_without_retry_after_backs_off_at_most_twice_then_asks(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(failure(429, "too many requests"))  # repeats for every request
    start(page, origin, model_server)
    send(page, "hello")
    banner = page.locator("[data-testid=error-banner]")
    banner.wait_for(timeout=WAIT_MS)
    assert banner.get_attribute("data-error-type") == "rate_limit"
    page.locator("[data-testid=decision-retry]").wait_for(timeout=WAIT_MS)
    assert len(retry_notices(page)) == RETRIES
    assert all(" s: too many requests" in n for n in retry_notices(page))
    assert len(model_server.completions()) == 1 + RETRIES, "no more than the configured retries"

    # the user retries once the limit has passed: exactly one more request, one reply
    model_server.queue[:] = [Scripted(chunks=text_chunks("Now it works."))]
    page.click("[data-testid=decision-retry]")
    wait_reply(page, "Now it works.")
    wait_idle(page)
    assert len(model_server.completions()) == 2 + RETRIES
    assert assistant_outcome(page) == [("done", "Now it works.")]
    assert messages(page, "user").count() == 1
    assert page.locator("[data-testid=decision-retry]").count() == 0


# --- 3. server errors ------------------------------------------------------------------------------------


def test_server_errors_three_times_ask_the_user_and_keep_everything(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start(page, origin, model_server)
    first_turn_writes_notes(page, model_server)
    model_server.queue[:] = [
        failure(500, "internal error"),
        failure(502, "bad gateway"),
        failure(503, "service unavailable"),
        Scripted(chunks=text_chunks("Recovered.")),
    ]
    before = len(model_server.completions())
    send(page, "go on")
    banner = page.locator("[data-testid=error-banner]")
    banner.wait_for(timeout=WAIT_MS)
    assert banner.get_attribute("data-error-type") == "server"
    assert "service unavailable" in banner.inner_text()
    for choice in ("retry", "alternative", "skip", "cancel"):
        page.locator(f"[data-testid=decision-{choice}]").wait_for(timeout=WAIT_MS)
    assert len(model_server.completions()) == before + 3
    assert_earlier_turn_intact(page)
    assert messages(page, "user").count() == 2

    page.click("[data-testid=decision-retry]")
    wait_reply(page, "Recovered.")
    wait_idle(page)
    assert len(model_server.completions()) == before + 4
    assert_earlier_turn_intact(page)
    assert assistant_outcome(page)[2:] == [("done", "Recovered.")]


# --- 4. a refused key --------------------------------------------------------------------------------------


def test_a_refused_key_is_not_retried_asks_for_the_key_and_keeps_history(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start(page, origin, model_server)
    first_turn_writes_notes(page, model_server)
    model_server.queue[:] = [failure(401, "Invalid API key")]
    before = len(model_server.completions())
    send(page, "go on")
    banner = page.locator("[data-testid=error-banner]")
    banner.wait_for(timeout=WAIT_MS)
    assert banner.get_attribute("data-error-type") == "auth"
    page.locator("[data-testid=decision-retry]").wait_for(timeout=WAIT_MS)
    assert page.locator("[data-testid=decision-alternative]").count() == 0
    assert "key" in banner.inner_text().lower()
    assert len(model_server.completions()) == before + 1, "a refused key is never retried automatically"
    assert retry_notices(page) == []
    assert_earlier_turn_intact(page)

    # the banner leads to the key; with a new key the user's retry goes through once
    banner.get_by_role("button", name="Open settings").click()
    page.fill("[data-testid=settings-api-key]", "sk-fixed-key")
    page.click("[data-testid=settings-save]")
    model_server.queue[:] = [Scripted(chunks=text_chunks("Authorised now."))]
    page.click("[data-testid=decision-retry]")
    wait_reply(page, "Authorised now.")
    sent = model_server.completions()
    assert len(sent) == before + 2
    assert sent[-1].headers.get("Authorization") == "Bearer sk-fixed-key"
    assert user_texts(sent[-1]) == ["write the plan", "go on"]
    assert_earlier_turn_intact(page)
