"""The stage under the rest of the loop (docs/stage.md), in review mode (`?changes=review`):

- pytest runs on the stage: the shell gets the staged files, the tests pass, and the workspace has none
  of them until Keep all; the preview shows the staged page (marked proposed);
- an opened folder on disk gets a staged file only once it is kept;
- plan → approve → carry out: the approved plan is carried out on the stage, its steps ticked, and the
  page stays as it was until the user keeps the change.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import WAIT_MS, tool_results
from tests.e2e.test_demo_scenarios import vfs, wait_file
from tests.e2e.test_plan_mode import PAGE, plan_turn, with_footer
from tests.e2e.test_ui_folder_open import disk, wait_disk

FIRST_PYTEST_MS = 180_000  # the first shell run starts Pyodide in the sandbox and loads pytest
CALC = "def add(a, b):\n    return a + b\n"
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
INDEX = "<!doctype html>\n<title>Staged page</title>\n<h1>Only on the stage</h1>\n"


def staged(page: Page, path: str) -> str | None:
    return vfs(page, "readText", path, {"staged": True})  # type: ignore[no-any-return]


def approve_until_idle(page: Page, timeout_ms: int = FIRST_PYTEST_MS) -> None:
    """Approve whatever the turn asks (the shell still asks on a stage) until it ends."""
    stop = page.locator("[data-testid=chat-stop]")
    waited = 0
    while waited < timeout_ms:
        asking = page.locator("[data-testid=tool-approve]:visible")
        if asking.count():
            asking.first.click()
        elif stop.is_hidden():
            return
        page.wait_for_timeout(200)
        waited += 200
    raise AssertionError("the turn did not end")


def test_pytest_and_the_preview_run_on_the_stage(page: Page, origin: str, model_server: ModelServer) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(
                ("create_file", {"path": "/calc.py", "content": CALC}),
                ("create_file", {"path": "/test_calc.py", "content": TEST}),
                ("create_file", {"path": "/index.html", "content": INDEX}),
            )
        ),
        Scripted(chunks=tool_call_chunks(("shell_exec", {"command": "pytest -q"}))),
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html"}))),
        Scripted(chunks=text_chunks("Tested and previewed.")),
    )
    open_app(
        page, origin, base_url=model_server.base_url, model="test-model", dialect="native", changes="review"
    )
    send(page, "Write add() with a test, run it, and show the page")
    approve_until_idle(page)
    results = tool_results(model_server)
    assert any("1 passed" in result for result in results), results
    assert any("Only on the stage" in result for result in results), results
    assert vfs(page, "readText", "/calc.py") is None and vfs(page, "readText", "/index.html") is None
    assert staged(page, "/calc.py") == CALC
    expect(page.locator("[data-testid=preview-proposed]")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("[data-testid=review-file]")).to_have_count(3, timeout=WAIT_MS)
    page.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/calc.py", CALC)
    wait_file(page, "/index.html", INDEX)
    expect(page.locator("[data-testid=review-panel]")).to_have_count(0, timeout=WAIT_MS)
    assert vfs(page, "check") == []


def test_an_opened_folder_gets_a_staged_file_only_once_it_is_kept(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("create_file", {"path": "/src/new.py", "content": "x = 1\n"}))),
        Scripted(chunks=text_chunks("Proposed.")),
    )
    open_app(
        page, origin, base_url=model_server.base_url, model="test-model", dialect="native", changes="review"
    )
    disk(page, "write", "/README.md", "# On disk\n")
    page.evaluate("() => window.agentlite.folder.openPrivate('project')")
    wait_file(page, "/README.md", "# On disk\n")
    send(page, "Add src/new.py")
    approve_until_idle(page, WAIT_MS)
    expect(page.locator("[data-testid=review-file][data-path='/src/new.py']")).to_be_visible(timeout=WAIT_MS)
    page.evaluate("() => window.agentlite.folder.sync()")
    assert disk(page, "read", "/src/new.py") is None  # proposed: not on disk
    page.locator("[data-testid=review-keep-all]").click()
    wait_disk(page, "/src/new.py", "x = 1\n")


def test_an_approved_plan_is_carried_out_on_the_stage(page: Page, origin: str) -> None:
    open_app(page, origin, mode="plan", changes="review")
    plan_turn(page)
    page.click("[data-testid=plan-approve]")
    expect(page.locator("[data-testid=plan] li[data-done=true]")).to_have_count(3, timeout=WAIT_MS)
    expect(page.locator("[data-testid=review-file][data-path='/index.html']")).to_be_visible(timeout=WAIT_MS)
    assert vfs(page, "readText", "/index.html") == PAGE  # carried out on the stage only
    assert staged(page, "/index.html") == with_footer("Made with AgentLite")
    page.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/index.html", with_footer("Made with AgentLite"))


def test_two_tabs_see_the_same_stage(page: Page, origin: str, model_server: ModelServer) -> None:
    """A second tab on the same chat sees the stage change as the first tab's turn writes it, and a file
    kept there is kept here: the review is one, wherever it is read."""
    model_server.script(
        Scripted(chunks=text_chunks("Hello.")),
        Scripted(chunks=tool_call_chunks(("create_file", {"path": "/shared.txt", "content": "both\n"}))),
        Scripted(chunks=text_chunks("Proposed.")),
    )
    query = {
        "base_url": model_server.base_url,
        "model": "test-model",
        "dialect": "native",
        "changes": "review",
    }
    open_app(page, origin, **query)
    send(page, "Hello")
    expect(page.locator("[data-testid=message][data-role=assistant]")).to_contain_text(
        "Hello.", timeout=WAIT_MS
    )
    other = page.context.new_page()
    open_app(other, origin, **query)  # the same chat, restored
    expect(other.locator("[data-testid=message][data-role=assistant]")).to_contain_text(
        "Hello.", timeout=WAIT_MS
    )
    send(page, "Add shared.txt")
    row = "[data-testid=review-file][data-path='/shared.txt']"
    expect(page.locator(row)).to_be_visible(timeout=WAIT_MS)
    expect(other.locator(row)).to_be_visible(timeout=WAIT_MS)  # heard from the first tab, no reload
    other.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/shared.txt", "both\n")
    expect(page.locator("[data-testid=review-panel]")).to_have_count(0, timeout=WAIT_MS)
