"""A real endpoint's stream, decoded by the Python decoders inside Pyodide, reaches the DOM piece
by piece (order and incremental arrival; no timings); a prompt dialect's tool call runs over real fetch;
stopping before the answer's headers arrive closes the connection."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Page

from agentlite.stream.ndjson_writer import NdjsonWriter
from buildsys.testing.model_server import Scripted, sse, text_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import messages, wait_idle
from tests.e2e.test_demo_scenarios import FINAL, card, vfs, wait_reply, wait_status

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


def ndjson_reply(write: NdjsonWriter, piece: int = 23) -> list[bytes]:
    """The writer's reply streamed as content deltas of `piece` characters, as a model would."""
    text = write.render()
    return text_chunks(*(text[i : i + piece] for i in range(0, len(text), piece)))


def test_ndjson_tool_call_over_fetch_writes_the_file(page: Page, origin: str, model_server: Any) -> None:
    content = "# Notes\n\n- streamed as base64 ü 😀\n" + "".join(f"- line {i}\n" for i in range(40))
    call = NdjsonWriter(chunk_size=64)
    call.thinking("t1", "Create the notes file.")
    call.tool("t1", "file_create", {"path": "/notes/ndjson.md", "content": content}, ("content",))
    call.done()
    answer = NdjsonWriter()
    answer.text("Wrote /notes/ndjson.md.")
    answer.done()
    model_server.script(Scripted(chunks=ndjson_reply(call)), Scripted(chunks=ndjson_reply(answer)))
    open_app(page, origin, base_url=model_server.base_url, model="x", dialect="ndjson")
    send(page, "write the notes")
    assert wait_status(page, card(page, "create_file"), FINAL) == "completed"
    wait_reply(page, "Wrote /notes/ndjson.md.")
    assert vfs(page, "readText", "/notes/ndjson.md") == content
    first = model_server.completions()[0].body
    assert "tools" not in first and "bs64_chunk" in first["messages"][0]["content"]  # the prompt dialect


def test_stop_before_the_headers_closes_the_connection(page: Page, origin: str, model_server: Any) -> None:
    held = Scripted(chunks=text_chunks("too late"), header_delay=45.0)
    model_server.script(held, Scripted(chunks=text_chunks("Back again.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "hello?")
    for _ in range(600):  # until the request is at the server, which holds its headers back
        if model_server.completions():
            break
        page.wait_for_timeout(50)
    assert model_server.completions(), "the request never reached the server"
    page.click("[data-testid=chat-stop]")
    assert model_server.abandoned.wait(timeout=20), "the fetch was not aborted: the server still waits"
    wait_idle(page)
    for reply in messages(page, "assistant").all():
        assert reply.get_attribute("data-state") == "interrupted"
    assert page.locator("[data-testid=error-banner]").count() == 0
    send(page, "again")
    wait_reply(page, "Back again.")


def test_content_in_a_lone_choice_one_after_a_role_chunk_of_choice_zero_is_shown(
    page: Page, origin: str, model_server: Any
) -> None:
    """The role in choice 0, then every word alone in choice 1: each word reaches the answer
    (docs/protocol.md, "Choice index")."""

    def lone(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": index, "delta": delta, "finish_reason": finish}]}

    words = [lone(1, {"content": word}) for word in ("Every ", "word ", "arrives.")]
    model_server.script(
        Scripted(chunks=sse(lone(0, {"role": "assistant", "content": ""}), *words, lone(1, {}, "stop")))
    )
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "say something")
    reply = wait_reply(page, "Every word arrives.")
    assert reply.get_attribute("data-state") == "done"
    assert page.locator("[data-testid=error-banner]").count() == 0
    assert len(model_server.completions()) == 1, "no retry of an answer taken for empty"
