"""Start-up: the page reaches ready through named phases, a broken artifact fails loudly with its
phase named, and a message typed before Python is ready is answered once it is."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route

from buildsys.bench.bench_startup import agent_worker
from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from tests.e2e.conftest import READY_TIMEOUT_MS, pipe_console, wait_ready

pytestmark = pytest.mark.cold  # the first visit's own start: no seeded snapshot

STATES_SCRIPT = """
window.__appStates = [];
new MutationObserver(() => {
  const app = document.querySelector('[data-testid=app]');
  if (app && window.__appStates.at(-1) !== app.dataset.state) window.__appStates.push(app.dataset.state);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state'], childList: true});
"""


@pytest.fixture
def broken_dist(tmp_path: Path) -> Iterator[Path]:
    copy = tmp_path / "dist"
    shutil.copytree(DIST, copy)
    yield copy


def serve_and_load(page: Page, root: Path, until: str = "ready, failed") -> str:
    """Loads the page from `root` until the app is in one of the states `until` names."""
    pipe_console(page)
    selector = ", ".join(f"[data-testid=app][data-state={state.strip()}]" for state in until.split(","))
    with StaticServer(root) as server:
        page.goto(f"{server.origin}/index.html")
        page.wait_for_selector(selector, state="attached", timeout=READY_TIMEOUT_MS)
        return page.get_attribute("[data-testid=app]", "data-state") or ""


def test_page_reaches_ready_and_hides_progress(page: Page, origin: str) -> None:
    page.add_init_script(STATES_SCRIPT)
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    assert page.locator("[data-testid=load-progress]").is_visible()
    wait_ready(page)
    assert page.evaluate("window.__appStates") == ["loading", "ready"]
    assert page.locator("[data-testid=load-progress]").is_hidden()
    page.evaluate("window.agentlite.ready")  # resolves


@pytest.mark.parametrize("name", ["pydantic", "agentlite"])
def test_corrupted_wheel_fails_in_packages_phase(page: Page, broken_dist: Path, name: str) -> None:
    # pydantic loads after ready (docs/startup.md): its failure comes later but fails the page alike.
    wheel = next((broken_dist / "pyodide").glob(f"{name}-*.whl"))
    data = bytearray(wheel.read_bytes())
    data[len(data) // 2] ^= 0xFF
    wheel.write_bytes(bytes(data))
    assert serve_and_load(page, broken_dist, until="failed") == "failed"
    assert page.get_attribute("[data-testid=app]", "data-failed-phase") == "packages"
    assert page.locator("[data-testid=load-progress]").is_visible()
    assert "packages" in page.inner_text("[data-testid=load-progress]")


def test_missing_wasm_fails_in_runtime_phase(page: Page, broken_dist: Path) -> None:
    (broken_dist / "pyodide" / "pyodide.asm.wasm").unlink()
    assert serve_and_load(page, broken_dist) == "failed"
    assert page.get_attribute("[data-testid=app]", "data-failed-phase") == "runtime"


def test_message_sent_before_ready_is_answered(page: Page, origin: str) -> None:
    held: list[Route] = []
    page.context.route("**/pyodide/agentlite-*.whl", lambda route: held.append(route))
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    page.fill("[data-testid=chat-input]", "hello before ready")
    page.press("[data-testid=chat-input]", "Enter")
    assert page.get_attribute("[data-testid=app]", "data-state") == "loading"
    for _ in range(1200):  # poll until the agent wheel request is held (bounded: 60 s)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the agent wheel was never requested"
    assert page.locator("[data-testid=message][data-role=assistant]").count() == 0
    for route in held:
        route.continue_()
    page.context.unroute("**/pyodide/agentlite-*.whl")
    wait_ready(page)
    done = page.locator("[data-testid=message][data-role=assistant][data-state=done]")
    done.wait_for(timeout=60_000)
    assert (
        page.locator("[data-testid=message][data-role=user] .message-body").inner_text()
        == "hello before ready"
    )
    assert "demo model" in done.inner_text()


# Polls (bounded: 120 s) until the agent worker has posted `ready`; true then.
WORKER_READY = """async () => {
  for (let i = 0; i < 6000 && !self.agentliteStart; i++) await new Promise((r) => setTimeout(r, 20));
  return Boolean(self.agentliteStart);
}"""


def test_the_worker_starts_before_the_page_bundle_and_its_messages_wait_for_it(
    page: Page, origin: str
) -> None:
    # start.js creates the agent worker ahead of app.js: hold app.js until the worker has started
    # completely, so every phase message and `ready` arrive before the page can listen.
    pipe_console(page)
    held: list[Route] = []
    page.context.route("**/app.js*", lambda route: held.append(route))
    page.goto(f"{origin}/index.html", wait_until="commit")
    assert agent_worker(page).evaluate(WORKER_READY) is True
    assert held, "app.js was never requested"
    assert page.get_attribute("[data-testid=app]", "data-state") == "loading"
    for route in held:
        route.continue_()
    page.context.unroute("**/app.js*")
    wait_ready(page)
    assert page.get_attribute("[data-testid=load-progress]", "data-path") == "fresh"
