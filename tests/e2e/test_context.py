"""Context budget in the browser: token counts come from the real tokenizer (gpt-tokenizer's o200k_base,
loaded by the worker when the first message is sent, not on start), and the context window from the
model's `/models` listing.

The context meter (`data-used`, `data-window`) shows the engine's count of the request it just sent;
the scripted endpoint records that request, so the test recounts it with gpt-tokenizer under node.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, Route, Worker

from agentlite.engine.tokens import TokenCounter, estimate
from buildsys.bench.bench_tokens import count_tokens
from buildsys.testing.model_server import ModelServer, Scripted, failure, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, start, wait_idle

MESSAGE_OVERHEAD, REPLY_PRIMING = 4, 3  # agentlite.engine.tokens: per message, per request
LISTED_WINDOW = 48_000


def agent_worker(page: Page) -> Worker:
    return next(w for w in page.workers if w.url.endswith("/worker.js"))


def wait_for_tokenizer(page: Page) -> None:
    """The worker's test hook: the promise of the tokenizer being installed in Python."""
    loaded = agent_worker(page).evaluate("async () => (await self.agentliteTokenizer) === true")
    assert loaded, "the tokenizer did not load"


def meter(page: Page) -> dict[str, int]:
    """What the context meter shows: tokens of the last request, and the window."""
    shown = page.wait_for_selector(
        "[data-testid=context-meter][data-used]:not([data-used=''])", state="attached", timeout=WAIT_MS
    )
    assert shown is not None
    return {name: int(shown.get_attribute(f"data-{name}") or 0) for name in ("used", "window")}


def recount(body: dict[str, Any]) -> int:
    """The request's tokens as the engine counts them, with every text counted by gpt-tokenizer."""
    texts = [str(m.get("content") or "") for m in body["messages"]]
    calls = [str(c) for m in body["messages"] for c in m.get("tool_calls") or ()]
    tools = [json.dumps(body["tools"])] if body.get("tools") else []
    counts = count_tokens(texts + calls + tools)
    total = REPLY_PRIMING + sum(MESSAGE_OVERHEAD + counts[t] for t in texts)
    total += sum(MESSAGE_OVERHEAD + counts[c] for c in calls)
    return total + sum(counts[t] for t in tools)


def test_the_worker_counts_a_request_with_gpt_tokenizer(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Counted.")))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    start(page, origin, model_server)
    assert not [url for url in requested if url.endswith("/worker-tokens.js")], "loaded on start"
    send(page, "Count me: 计算 1000 以内的所有素数之和, then `print(sum(primes))` <|endoftext|>")
    wait_for_tokenizer(page)  # the first message waits for it, so its request is counted by it
    assert [url for url in requested if url.endswith("/worker-tokens.js")], "the listener sees the load"
    wait_idle(page)
    body = model_server.completions()[-1].body
    expected = recount(body)
    assert meter(page)["used"] == expected
    estimated = TokenCounter(estimate).messages(body["messages"]) + TokenCounter(estimate).text(
        json.dumps(body["tools"])
    )
    assert estimated != expected, "the estimate alone would pass: this request cannot tell them apart"


def test_the_listed_context_window_is_the_meters_window(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    def listing(route: Route) -> None:
        entry = {"id": "test-model", "object": "model", "context_length": LISTED_WINDOW}
        headers = {"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"}
        route.fulfill(status=200, headers=headers, body=json.dumps({"object": "list", "data": [entry]}))

    page.context.route(f"{model_server.base_url}/models", listing)
    model_server.script(Scripted(chunks=text_chunks("Measured.")))
    with page.expect_request_finished(lambda r: r.url.endswith("/models"), timeout=WAIT_MS):
        start(page, origin, model_server)  # the worker reads the listing when the settings arrive
    send(page, "hello")
    wait_idle(page)
    assert meter(page)["window"] == LISTED_WINDOW


REFUSAL = (
    "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. "
    "Please reduce the length of the messages."
)


def test_a_context_length_refusal_is_retried_with_a_request_that_fits(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    """The window the refusal states is learnt and the retry is cut to fit it: the old tool result goes
    first, the system prompt and the question stay (docs/protocol.md, "Context windows that shrink")."""
    log = "".join(f"{i:05d} worker {i % 7} finished batch {i * 13} in {i % 97} ms\n" for i in range(200))
    model_server.script(
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/build.log"}))),
        Scripted(chunks=text_chunks("The log lists 200 batches.")),
        failure(400, REFUSAL),
        Scripted(chunks=text_chunks("Batch 96 was the slowest.")),
    )
    start(page, origin, model_server)
    page.evaluate("(text) => window.agentlite.vfs.writeText('/build.log', text)", log)
    send(page, "read /build.log")
    wait_idle(page)
    send(page, "which batch was slowest?")
    wait_idle(page)
    bodies = [r.body for r in model_server.completions()]
    assert len(bodies) == 4
    refused, retry = bodies[2], bodies[3]
    assert "00150 worker" in json.dumps(refused) and "00150 worker" not in json.dumps(retry)
    assert recount(retry) < recount(refused)
    assert retry["messages"][0] == refused["messages"][0], "the system prompt stays"
    assert retry["messages"][-1]["content"].endswith("which batch was slowest?")
    last = page.locator("[data-testid=message][data-role=assistant]").last
    assert "Batch 96 was the slowest." in last.inner_text()
    assert page.locator("[data-testid=error-banner]").count() == 0


def test_a_refusal_whose_window_our_count_meets_gets_a_smaller_request_that_fits(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    """The server counts 3× ours (another tokenizer, tool schemas in its template): our count of the
    refused request fits the window it states, even with the answer's reserve and a ratio bounded as
    provider usage is (2×); its count does not. Its count is the truth: the retry is cut until, scaled
    by that ratio, it fits (docs/protocol.md, "Context windows that shrink")."""
    log = "".join(f"{i:05d} worker {i % 7} finished batch {i * 13} in {i % 97} ms\n" for i in range(200))
    model_server.script(
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/build.log"}))),
        Scripted(chunks=text_chunks("The log lists 200 batches.")),
        Scripted(chunks=text_chunks("Batch 96 was the slowest.")),
    )
    refused: list[dict[str, Any]] = []
    window: list[int] = []

    def refuse_once(route: Route) -> None:
        body = route.request.post_data_json
        if refused or not str(body["messages"][-1].get("content")).endswith("which batch was slowest?"):
            route.continue_()
            return
        ours = recount(body)
        refused.append(body)
        window.append(int(ours * 2.8))
        message = (
            f"This model's maximum context length is {window[0]} tokens. However, your messages "
            f"resulted in {int(ours * 3)} tokens. Please reduce the length of the messages."
        )
        headers = {"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"}
        error = {
            "error": {"message": message, "type": "invalid_request_error", "code": "context_length_exceeded"}
        }
        route.fulfill(status=400, headers=headers, body=json.dumps(error))

    page.context.route(f"{model_server.base_url}/chat/completions", refuse_once)
    start(page, origin, model_server)
    page.evaluate("(text) => window.agentlite.vfs.writeText('/build.log', text)", log)
    send(page, "read /build.log")
    wait_idle(page)
    send(page, "which batch was slowest?")
    wait_idle(page)
    assert len(refused) == 1, "the refused request reached the refusing route"
    assert recount(refused[0]) <= window[0] * 0.95, "our own count of it fit the stated window"
    retry = model_server.completions()[-1].body
    assert retry["messages"][-1]["content"].endswith("which batch was slowest?")
    assert recount(retry) * 3 <= window[0], "counted the server's way, the retry fits"
    assert retry["messages"][0] == refused[0]["messages"][0], "the system prompt stays"
    last = page.locator("[data-testid=message][data-role=assistant]").last
    assert "Batch 96 was the slowest." in last.inner_text()
    assert page.locator("[data-testid=error-banner]").count() == 0
