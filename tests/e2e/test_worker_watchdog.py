"""The agent worker's watchdog: a Python step that never yields (held through the testing API's
`worker.busy`, as a runaway pattern would hold it) is noticed, the user is told, and a new worker takes
over with nothing lost: the turn that was running ends with an error, the files written before are
intact, and a new turn works. A long step that does end is not mistaken for a hang."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import messages, start, wait_idle
from tests.e2e.test_demo_scenarios import wait_reply

NOTICE = "[data-testid=worker-restarted]"
RESTART_MS = 180_000  # the watchdog's limit, the new worker's start, on a loaded machine
HANG_AFTER_MS = 10_000  # the limit the restart test sets (60 s in use): the same path, 50 s sooner

# Runs the busy step without waiting for it; keeps how its call ended.
HOLD = """(seconds) => {
  window.__busy = null;
  window.agentlite.worker.busy(seconds).then(
    (value) => { window.__busy = { ok: true, value }; },
    (err) => { window.__busy = { ok: false, error: err.message }; },
  );
}"""


def test_a_worker_that_stops_answering_is_restarted_with_nothing_lost(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=text_chunks(*[f"word{n} " for n in range(200)]), delay=0.5),  # a turn still streaming
        Scripted(chunks=text_chunks("Back again.")),
    )
    start(page, origin, model_server)
    page.evaluate("window.agentlite.vfs.writeText('/notes/kept.md', '# Kept\\n')")
    send(page, "tell me a long story")
    streaming = messages(page, "assistant").last
    expect(streaming).to_contain_text("word1", timeout=60_000)
    assert page.evaluate("window.agentlite.worker.generation()") == 0

    # Set once the turn streams: the steps before it (pydantic's import after ready) are behind it.
    page.evaluate("(ms) => window.agentlite.worker.hangAfter(ms)", HANG_AFTER_MS)
    page.evaluate(HOLD, 600)  # far past the watchdog's limit
    notice = page.locator(NOTICE)
    expect(notice).to_be_visible(timeout=RESTART_MS)
    expect(notice).to_contain_text("stopped answering")
    expect(notice).to_contain_text(f"past the {HANG_AFTER_MS // 1000} s limit")
    expect(notice).to_have_attribute("data-state", "ready", timeout=RESTART_MS)
    page.evaluate("() => window.agentlite.worker.hangAfter(60_000)")  # the new worker's imports may be slow
    expect(page.locator("[data-testid=app]")).to_have_attribute("data-state", "ready")
    assert page.evaluate("window.agentlite.worker.generation()") == 1
    busy = page.evaluate("window.__busy")
    assert busy["ok"] is False and "stopped answering" in busy["error"], busy

    # The running turn ended with an error; the chat is idle again.
    expect(streaming).to_have_attribute("data-state", "error")
    expect(page.locator("[data-testid=error-banner]").last).to_contain_text("restarted")
    wait_idle(page)

    # The files are intact, in the store and in the tree; a new turn works on the new worker.
    assert page.evaluate("window.agentlite.vfs.readText('/notes/kept.md')") == "# Kept\n"
    expect(page.locator("[data-testid=file-item][data-path='/notes']")).to_be_visible()
    send(page, "are you back?")
    wait_reply(page, "Back again.")
    assert page.evaluate("window.agentlite.worker.generation()") == 1


def test_a_long_step_that_ends_is_not_a_hang(page: Page, origin: str, model_server: ModelServer) -> None:
    start(page, origin, model_server)
    page.evaluate(HOLD, 8)
    page.wait_for_function("() => window.__busy !== null", timeout=60_000)
    assert page.evaluate("window.__busy") == {"ok": True, "value": 8}
    assert page.evaluate("window.agentlite.worker.generation()") == 0
    # The pings sent meanwhile were answered once it ended: the watchdog saw the worker held, and waited.
    page.wait_for_function("() => window.agentlite.worker.longestMs() >= 4000", timeout=60_000)
    assert page.evaluate("window.agentlite.worker.generation()") == 0
    expect(page.locator(NOTICE)).to_have_count(0)
