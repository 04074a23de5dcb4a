"""The demo's "write a function and a test, then run the tests" example, end to end from the first
screen: the demo model writes a buggy add() and its test, runs pytest in the sandbox (1 failed), fixes
the bug with edit_file and runs pytest green; pytest's cache never lands in the workspace."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.scripted_support import approve_through
from tests.e2e.test_demo_scenarios import FINAL, WAIT_MS, card, vfs, wait_reply, wait_status

PROMPT = "write a function and a test, then run the tests"
PYTEST_FIRST_USE_MS = 240_000  # Pyodide starts in the frame and pytest's wheels load


def red_then_green(page: Page) -> None:
    """Click the example on the first screen and follow the turn to its green end."""
    page.locator(f"[data-testid=welcome-example][data-prompt='{PROMPT}']").click(timeout=WAIT_MS)
    assert approve_through(page, card(page, "write_file", 1)) == "completed"
    first = card(page, "shell_exec", 0)
    if wait_status(page, first, {"awaiting-approval", "executing", *FINAL}) == "awaiting-approval":
        first.locator("[data-testid=tool-approve]").click()
    page.wait_for_function(  # pytest's exit code 1 fails the call
        "(el) => el.dataset.status === 'failed'", arg=first.element_handle(), timeout=PYTEST_FIRST_USE_MS
    )
    assert "1 failed, 1 passed" in first.inner_text()
    assert approve_through(page, card(page, "edit_file")) == "completed"
    assert approve_through(page, card(page, "shell_exec", 1)) == "completed"
    wait_reply(page, "All green: 2 passed")


def test_the_example_runs_pytest_red_fixes_then_green(app: Page) -> None:
    red_then_green(app)
    assert "return a + b" in vfs(app, "readText", "/calc.py")
    assert [v["op"] for v in vfs(app, "history", "/calc.py")] == ["create", "edit"]
    paths = [entry["path"] for entry in vfs(app, "list", "/")]
    assert paths == ["/calc.py", "/test_calc.py"]  # no /.pytest_cache, no __pycache__
