"""A real endpoint's stream, decoded by the Python decoders inside Pyodide, reaches the DOM piece
by piece (order and incremental arrival; no timings)."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page

from buildsys.model_server import Scripted, sse, text_chunks
from tests.e2e.conftest import open_app, send

GROWTH = """
window.__growth = [];
new MutationObserver(() => {
  const m = document.querySelector('[data-testid=message][data-role=assistant] .message-body');
  if (m && window.__growth.at(-1) !== m.innerText) window.__growth.push(m.innerText);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_slow_stream_appears_incrementally_in_order(page: Page, origin: str, model_server: Any) -> None:
    words = [f"word{i} " for i in range(12)]
    model_server.script(Scripted(chunks=text_chunks(*words), delay=0.15))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    page.evaluate(GROWTH)
    send(page, "count for me")
    page.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=60_000)
    growth = [g.strip() for g in page.evaluate("window.__growth") if g.strip()]
    final = "".join(words).strip()
    assert growth[-1] == final
    assert len(growth) >= 4, f"the reply did not arrive incrementally: {growth}"
    for earlier, later in itertools.pairwise(growth):
        assert final.startswith(earlier) and len(later) >= len(earlier)


def test_request_is_openai_compatible_and_carries_the_key(page: Page, origin: str, model_server: Any) -> None:
    model_server.script(Scripted(chunks=text_chunks("ok")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    page.click("[data-testid=settings-open]")
    page.fill("[data-testid=settings-api-key]", "sk-test-123")
    page.click("[data-testid=settings-save]")
    send(page, "hi")
    page.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=60_000)
    (request,) = model_server.completions()
    assert request.headers.get("Authorization") == "Bearer sk-test-123"
    assert request.body["stream"] is True and request.body["model"] == "test-model"
    assert request.body["messages"][-1] == {"role": "user", "content": "hi"}


def test_reasoning_shows_apart_from_the_answer(page: Page, origin: str, model_server: Any) -> None:
    thinking = [{"choices": [{"index": 0, "delta": {"reasoning_content": "Let me think."}}]}]
    answer = [{"choices": [{"index": 0, "delta": {"content": "The answer."}, "finish_reason": "stop"}]}]
    model_server.script(Scripted(chunks=sse(*thinking, *answer)))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "think")
    reply = page.locator("[data-testid=message][data-role=assistant][data-state=done]")
    reply.wait_for(timeout=60_000)
    assert reply.locator("[data-testid=thinking]").inner_text().endswith("Let me think.")
    assert reply.locator(".message-body").inner_text().strip() == "The answer."


def test_http_error_shows_a_typed_banner(page: Page, origin: str, model_server: Any) -> None:
    model_server.script(Scripted(status=401, chunks=[b'{"error": {"message": "Invalid API key"}}']))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "hi")
    banner = page.locator("[data-testid=error-banner]")
    banner.wait_for(timeout=60_000)
    assert banner.get_attribute("data-error-type") == "auth"
    assert "Invalid API key" in banner.inner_text()
