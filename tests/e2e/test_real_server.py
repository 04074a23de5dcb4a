"""The app against a real OpenAI-compatible server: llama-cpp-python's server with SmolLM2-135M-Instruct
(buildsys/testing/llama_server.py; `python build.py test` installs it).

The model is tiny and says what it says: these tests assert what the app does with it — the turn ends
in a clear state (no spinner left, no card left running), every file's newest version is its content —
not that the answer is right.
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Response, Route, expect

from buildsys.testing.llama_server import FUNCTIONS, PLAIN, SMALL, LlamaServer
from tests.e2e.conftest import open_app, send

pytestmark = pytest.mark.timeout(900)  # above the suite's 300 s: a turn of a real model takes minutes here
SERVER_WAIT_MS = 600_000  # a 135M model on 2 shared cores: minutes per turn in the worst case
SETTLED = """() => {
  const stop = document.querySelector('[data-testid=chat-stop]');
  const asking = document.querySelector('[data-testid=tool-approve], [data-testid^=decision-]');
  return (stop && stop.hidden) || stop?.offsetParent === null || asking !== null;
}"""
FILLER = " ".join(f"Note {n}: the quick brown fox jumps over the lazy dog by the river." for n in range(36))


@pytest.fixture(scope="session")
def llama() -> Iterator[LlamaServer]:
    with LlamaServer() as server:
        yield server


@dataclass
class Exchanges:
    """The app's model requests (from the page and its worker) and the status each got."""

    posts: list[Request] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)  # id(request) → HTTP status

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.post_data or "null") for r in self.posts]

    def status(self, index: int) -> int | None:
        return self.statuses.get(id(self.posts[index]))


def watch(page: Page) -> Exchanges:
    log = Exchanges()

    def on_request(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/chat/completions"):
            log.posts.append(request)

    def on_response(response: Response) -> None:
        log.statuses[id(response.request)] = response.status

    page.context.on("request", on_request)
    page.context.on("response", on_response)
    return log


def open_real(page: Page, origin: str, llama: LlamaServer, model: str, dialect: str) -> Page:
    return open_app(page, origin, base_url=llama.base_url, model=model, dialect=dialect)


def chat_mode(page: Page) -> None:
    page.click("[data-testid=mode-toggle]")
    expect(page.locator("[data-testid=mode-toggle]")).to_have_attribute("data-mode", "chat")


def settle(page: Page) -> str:
    """Wait for the turn to end, approving what it asks; 'idle', or 'decision' when it asks the user."""
    while True:
        page.wait_for_function(SETTLED, timeout=SERVER_WAIT_MS)
        approve = page.locator("[data-testid=tool-approve]")
        if approve.count():
            approve.first.click()
            continue
        if page.locator("[data-testid^=decision-]").count():
            return "decision"
        return "idle"


def assert_clear_end(page: Page) -> None:
    """Nothing left streaming or running, and the last answer, error or question is on screen."""
    streaming = page.locator("[data-testid=message][data-state=streaming]")
    assert streaming.count() == 0, "a message is still streaming after the turn ended"
    running = page.locator(
        "[data-testid=tool-card][data-status=pending], [data-testid=tool-card][data-status=executing]"
    )
    assert running.count() == 0, "a tool card is still running after the turn ended"
    answers = page.locator("[data-testid=message][data-role=assistant]")
    shown = page.locator("[data-testid=error-banner], [data-testid^=decision-]").count()
    last = answers.last.get_attribute("data-state") if answers.count() else None
    assert shown or last in ("done", "interrupted", "error"), f"no clear end: last answer is {last}"
    if last == "done" and not shown:
        assert answers.last.inner_text().strip(), "the turn ended with an empty answer and no message"


def files(page: Page, folder: str = "/") -> list[str]:
    entries = page.evaluate("(dir) => window.agentlite.vfs.list(dir)", folder)
    found: list[str] = []
    for entry in entries:
        if entry["kind"] == "dir" and entry["path"] != folder:
            found += files(page, entry["path"])
        elif entry["kind"] == "file":
            found.append(entry["path"])
    return found


def assert_files_consistent(page: Page) -> None:
    """Every file's newest version in the history is exactly its content."""
    for path in files(page):
        text = page.evaluate("(p) => window.agentlite.vfs.readText(p)", path)
        history = page.evaluate("(p) => window.agentlite.vfs.history(p)", path)
        assert history, f"{path} has no history"
        versions = [v["version"] for v in history]
        assert versions == sorted(versions), f"{path}: versions out of order {versions}"
        assert history[-1]["sha256"] == hashlib.sha256(text.encode()).hexdigest(), (
            f"{path}: newest version differs"
        )


def test_the_connection_test_passes_and_lists_the_model(page: Page, origin: str, llama: LlamaServer) -> None:
    app = open_real(page, origin, llama, FUNCTIONS.alias, "auto")
    app.click("[data-testid=settings-open]")
    app.click("[data-testid=settings-test]")
    result = app.locator("[data-testid=settings-test-result]")
    expect(result).to_have_attribute("data-outcome", "ok", timeout=60_000)
    expect(result).to_contain_text(FUNCTIONS.alias)  # the result names the model it found
    listed = [o.get_attribute("value") for o in app.locator("#settings-models option").all()]
    assert FUNCTIONS.alias in listed and set(listed) == {s.alias for s in (FUNCTIONS, PLAIN, SMALL)}


def test_a_plain_question_streams_an_answer(page: Page, origin: str, llama: LlamaServer) -> None:
    app = open_real(page, origin, llama, PLAIN.alias, "auto")
    exchanges = watch(app)
    chat_mode(app)
    app.evaluate("""() => {
      window.__lengths = [];
      new MutationObserver(() => {
        const el = [...document.querySelectorAll('[data-testid=message][data-role=assistant]')].pop();
        if (el && el.dataset.state === 'streaming') window.__lengths.push(el.innerText.trim().length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    }""")
    send(app, "Write a short poem about the sea.")
    assert settle(app) == "idle"
    assert_clear_end(app)
    answer = app.locator("[data-testid=message][data-role=assistant]").last
    expect(answer).to_have_attribute("data-state", "done")
    assert answer.inner_text().strip()
    grew = sorted({n for n in app.evaluate("window.__lengths") if n > 0})
    assert len(grew) >= 2, f"the answer did not arrive in pieces: lengths seen while streaming {grew}"
    assert exchanges.bodies()[0]["stream"] is True and exchanges.status(0) == 200


def test_stop_ends_an_answer_and_the_next_turn_works(page: Page, origin: str, llama: LlamaServer) -> None:
    app = open_real(page, origin, llama, PLAIN.alias, "auto")
    exchanges = watch(app)
    chat_mode(app)
    send(app, "Tell me a very long story about a dragon who learns to cook, in many chapters.")
    streaming = app.locator("[data-testid=message][data-role=assistant][data-state=streaming]")
    streaming.wait_for(state="attached", timeout=SERVER_WAIT_MS)
    app.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=message][data-role=assistant]')].pop()"
        "?.innerText.trim().length > 0",
        timeout=SERVER_WAIT_MS,
    )
    app.click("[data-testid=chat-stop]")
    assert settle(app) == "idle"
    first = app.locator("[data-testid=message][data-role=assistant]").first
    assert first.get_attribute("data-state") in ("interrupted", "done")
    send(app, "What is 2+2?")
    app.locator("[data-testid=message][data-role=assistant]").nth(1).wait_for(timeout=SERVER_WAIT_MS)
    assert settle(app) == "idle"
    assert_clear_end(app)
    second = app.locator("[data-testid=message][data-role=assistant]").nth(1)
    expect(second).to_have_attribute("data-state", "done")
    assert len(exchanges.posts) == 2 and exchanges.status(1) == 200


def test_a_forced_tool_is_a_native_call_that_the_app_runs(
    page: Page, origin: str, llama: LlamaServer
) -> None:
    """The tool picker forces `create_file`: the server's grammar makes the model call it natively
    (llama-cpp-python sends the legacy `function_call` beside `tool_calls` in every delta)."""
    app = open_real(page, origin, llama, FUNCTIONS.alias, "auto")
    exchanges = watch(app)
    app.select_option("[data-testid=tool-picker]", "create_file")
    send(app, "Create the file /notes/hello.txt that says hello.")
    settle(app)
    assert_clear_end(app)
    bodies = exchanges.bodies()
    assert bodies[0]["tool_choice"] == {"type": "function", "function": {"name": "create_file"}}
    card = app.locator("[data-testid=tool-card][data-tool=create_file]").first
    assert card.get_attribute("data-status") == "completed", card.inner_text()
    assert len(bodies) >= 2, "the call's result never went back to the model"
    calls = [c for m in bodies[1]["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or ()]
    results = [m for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert calls and results, "the next request does not carry the call and its result"
    arguments = json.loads(calls[0]["function"]["arguments"])
    path = "/" + arguments["path"].lstrip("/")
    assert app.evaluate("(p) => window.agentlite.vfs.readText(p)", path) == arguments["content"]
    assert_files_consistent(app)
    accepted = [i for i in range(1, len(bodies)) if exchanges.status(i) == 200]
    assert accepted, f"the server refused every request after the call: {exchanges.statuses.values()}"
    last = app.locator("[data-testid=message][data-role=assistant]").last
    assert last.get_attribute("data-state") == "done" and last.inner_text().strip(), (
        "the model never answered"
    )
    expect(app.locator("[data-testid=error-banner]")).to_have_count(0)


def test_the_json_dialect_writes_a_file_or_says_clearly_why_not(
    page: Page, origin: str, llama: LlamaServer
) -> None:
    app = open_real(page, origin, llama, PLAIN.alias, "json")
    exchanges = watch(app)
    send(app, "Create the file /notes/hello.txt that says hello.")
    settle(app)
    assert_clear_end(app)
    assert all("tools" not in body for body in exchanges.bodies())
    cards = app.locator("[data-testid=tool-card]")
    statuses = [cards.nth(i).get_attribute("data-status") for i in range(cards.count())]
    assert all(s in ("completed", "failed", "rejected") for s in statuses), statuses
    written = [p for p in files(app) if p.startswith("/notes/") or "hello" in p]
    said = app.locator("[data-testid=message][data-role=assistant]").last.inner_text().strip()
    banner = app.locator("[data-testid=error-banner]")
    assert written or said or banner.count(), "no file written and nothing said"
    assert_files_consistent(app)


def refuse_what_does_not_fit(page: Page, llama: LlamaServer) -> None:
    """This server answers a streamed request longer than its window with an empty 200 (it fails after
    the headers); only an unstreamed one gets its `400 context_length_exceeded`. So each request is first
    put to the same server unstreamed, asking for logprobs, which it refuses (500) right after its window
    check and before any work: a context refusal reaches the page as the server worded it, anything else
    goes through untouched and streams."""

    def handle(route: Route) -> None:
        body = json.loads(route.request.post_data or "null")
        probe = {k: v for k, v in body.items() if k != "stream_options"}
        probe |= {"stream": False, "logprobs": True, "top_logprobs": 1}
        asked = urllib.request.Request(
            route.request.url, json.dumps(probe).encode(), {"Content-Type": "application/json"}
        )
        try:
            urllib.request.urlopen(asked, timeout=300).read()
        except urllib.error.HTTPError as refused:
            text = refused.read()
            if refused.code == 400 and b"context_length_exceeded" in text:
                origin = route.request.headers.get("origin", "*")
                headers = {"Access-Control-Allow-Origin": origin, "Content-Type": "application/json"}
                return route.fulfill(status=400, headers=headers, body=text)
        route.continue_()

    page.context.route(f"{llama.base_url}/chat/completions", handle)


def fill_the_small_window(page: Page, exchanges: Exchanges) -> None:
    """One long message that fits the small window alone: the next long one will not fit. Its answer is
    stopped once it has begun, so a model that rambles does not fill the window in this turn already."""
    chat_mode(page)
    send(page, f"Here are my notes. {FILLER} Reply with one word: ok.")
    page.wait_for_function(
        f"() => ({SETTLED})() || [...document.querySelectorAll('[data-testid=message][data-role=assistant]')]"
        ".pop()?.innerText.trim().length > 0",
        timeout=SERVER_WAIT_MS,
    )
    stop = page.locator("[data-testid=chat-stop]")
    if stop.is_visible():
        stop.click()
    assert settle(page) == "idle"
    assert exchanges.status(0) == 200, "the first message alone should fit the window"


def test_a_refused_context_is_retried_smaller_and_the_servers_window_is_learnt(
    page: Page, origin: str, llama: LlamaServer
) -> None:
    """The small alias has a 1,024-token window: a second long message outgrows it. The retry after the
    server's `context_length_exceeded` must be a smaller, different request that still carries the new
    message, and the window the error states becomes the meter's."""
    app = open_real(page, origin, llama, SMALL.alias, "auto")
    refuse_what_does_not_fit(app, llama)
    exchanges = watch(app)
    fill_the_small_window(app, exchanges)
    asked = len(exchanges.posts)
    question = "Which animal jumps? Answer in one word."
    send(app, f"More notes. {FILLER} {question}")
    settle(app)
    assert_clear_end(app)
    refused = [i for i in range(asked, len(exchanges.posts)) if exchanges.status(i) == 400]
    assert refused, "the server never refused a request: the history did not outgrow its window"
    bodies = exchanges.bodies()
    first_refused = bodies[refused[0]]
    # a summary request of the older turns may come between: the retry is the next one with the question
    retries = [b for b in bodies[refused[0] + 1 :] if question in json.dumps(b["messages"][-1])]
    assert retries, "no request after the refusal carried the current message"
    retry = retries[0]
    assert retry != first_refused, "the retry resent the identical request"
    assert len(json.dumps(retry)) < len(json.dumps(first_refused))
    assert exchanges.status(len(bodies) - 1) == 200, "no request of the turn fitted the window"
    window = app.locator("[data-testid=context-meter]").get_attribute("data-window")
    assert window == str(SMALL.n_ctx)


def test_a_streamed_request_beyond_the_window_never_ends_as_a_silent_empty_answer(
    page: Page, origin: str, llama: LlamaServer
) -> None:
    """Unproxied, the server's answer to an oversized streamed request is an empty 200. The turn must
    not end as an empty answer that looks like success: either a smaller request is answered, or an
    error is on screen."""
    app = open_real(page, origin, llama, SMALL.alias, "auto")
    exchanges = watch(app)
    fill_the_small_window(app, exchanges)
    asked = len(exchanges.posts)
    send(app, f"More notes. {FILLER} Which animal jumps?")
    settle(app)
    assert_clear_end(app)
    banner = app.locator("[data-testid=error-banner]")
    if banner.count():
        assert banner.last.inner_text().strip(), "an error banner without words"
        return
    bodies = exchanges.bodies()
    oversized = len(json.dumps(bodies[asked]))
    assert len(json.dumps(bodies[-1])) < oversized, (
        "answered without a smaller request: the empty reply passed"
    )
    answer = app.locator("[data-testid=message][data-role=assistant]").last
    assert answer.get_attribute("data-state") == "done" and answer.inner_text().strip()
