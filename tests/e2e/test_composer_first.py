"""Composer first: on a returning visit the file tree is painted from IndexedDB while Python still loads,
and a message typed then is sent once the agent is ready."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect

from tests.e2e.conftest import pipe_console, wait_ready
from tests.e2e.test_demo_scenarios import vfs

HELD = "**/pyodide/agentlite-*.whl"  # the agent's own wheel: Python cannot be ready without it


def test_the_tree_is_painted_from_storage_and_an_early_message_is_answered(page: Page, origin: str) -> None:
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    vfs(page, "writeText", "/src/early.ts", "export const early = 1;\n")
    vfs(page, "writeText", "/notes/todo.md", "- paint first\n")

    held: list[Route] = []
    page.context.route(HELD, lambda route: held.append(route))
    page.reload()
    tree = page.locator("[data-testid=file-tree]")
    tree.locator("[data-testid=file-item][data-path='/src/early.ts']").wait_for(timeout=60_000)
    assert page.get_attribute("[data-testid=app]", "data-state") == "loading"
    paths = tree.locator("[data-testid=file-item]").evaluate_all(
        "(items) => items.map((i) => i.dataset.path)"
    )
    assert {"/src", "/src/early.ts", "/notes", "/notes/todo.md"} <= set(paths)
    kinds = dict(
        tree.locator("[data-testid=file-item]").evaluate_all(
            "(items) => items.map((i) => [i.dataset.path, i.dataset.kind])"
        )
    )
    assert kinds["/src"] == "dir" and kinds["/src/early.ts"] == "file"

    page.fill("[data-testid=chat-input]", "list files")
    page.press("[data-testid=chat-input]", "Enter")
    assert page.get_attribute("[data-testid=app]", "data-state") == "loading"
    for _ in range(1200):  # bounded poll (60 s) until the wheel request is held
        if held:
            break
        page.wait_for_timeout(50)
    for route in held:
        route.continue_()
    page.context.unroute(HELD)
    wait_ready(page)
    # The reply has two rounds (the tool call, then the answer): wait for the answer naming the file.
    done = page.locator("[data-testid=message][data-role=assistant][data-state=done]").last
    expect(done).to_contain_text("early.ts", use_inner_text=True, timeout=60_000)
    assert page.locator("[data-testid=message][data-role=user]").count() == 1


def test_no_workspace_yet_paints_nothing_and_creates_nothing_early(page: Page, origin: str) -> None:
    """The page's early read never creates the database: the worker still creates it with its stores."""
    held: list[Route] = []
    page.context.route(HELD, lambda route: held.append(route))
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    for _ in range(1200):
        if held:
            break
        page.wait_for_timeout(50)
    assert page.locator("[data-testid=file-item]").count() == 0
    for route in held:
        route.continue_()
    page.context.unroute(HELD)
    wait_ready(page)
    vfs(page, "writeText", "/made.txt", "made\n")
    assert vfs(page, "readText", "/made.txt") == "made\n"
