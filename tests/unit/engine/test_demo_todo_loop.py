"""The demo's todo loop: it writes a todo page, reads it as an accessibility tree, types a todo and presses
Enter; the page throws, and the demo reads the error the action caused, fixes the script, opens the page
again and drives it again — in every dialect. A page that still throws, or a todo that never shows, is said
as such, never as success."""

from __future__ import annotations

from typing import Any

import pytest

from agentlite.demo import todo_loop
from agentlite.demo.scenarios import examples
from agentlite.page_jobs import ScriptedSandbox
from agentlite.stream.decoder import DIALECTS
from agentlite.workspace import Workspace
from tests.unit.engine.test_demo import finished, run_demo, text_of

PROMPT = "build a todo page and check that adding a todo works"
TREE = ['- heading "Todos" [level=1] [ref=e1]', '- textbox "New todo" [ref=e2]', '- button "Add" [ref=e3]']
THROWN = "TypeError: Cannot read properties of null (reading 'append') at /todo/app.js:9:8"
ADDED = "  - listitem [ref=e5]: Buy milk"


class Page:
    """The preview as the frame answers: the first version throws on Enter, the one opened after the fix
    adds the todo (unless `still_broken`)."""

    def __init__(self, still_broken: bool = False, never_shows: bool = False) -> None:
        self.opened = 0
        self.still_broken = still_broken
        self.never_shows = never_shows
        self.jobs: list[str] = []

    def __call__(self, kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        op = payload.get("op", "page")
        self.jobs.append(f"{op} {payload.get('action', '')}".strip())
        if op == "page":
            self.opened += 1
            return {"state": "ready", "title": "Todos", "text": "Todos", "logs": [], "errors": []}
        if op == "snapshot":
            return {"state": "ready", "lines": TREE, "logs": [], "errors": []}
        if payload["action"] != "press":
            return {"before": TREE, "after": TREE, "logs": [], "errors": []}
        if self.opened == 1 or self.still_broken:
            return {"before": TREE, "after": TREE, "logs": [], "errors": [THROWN]}
        after = TREE if self.never_shows else [*TREE, '- list "Todos" [ref=e4]', ADDED]
        return {"before": TREE, "after": after, "logs": [], "errors": []}


def run(dialect: str, page: Page) -> tuple[list[dict[str, Any]], Workspace]:
    return run_demo(PROMPT, ScriptedSandbox(page), dialect)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_it_drives_the_page_sees_the_error_fixes_it_and_drives_it_again(dialect: str) -> None:
    page = Page()
    events, workspace = run(dialect, page)
    opened = [("preview_page", "completed"), ("preview_snapshot", "completed")]
    drove = [("preview_act", "completed"), ("preview_act", "completed")]
    assert finished(events) == [
        ("write_file", "completed"),
        ("write_file", "completed"),
        *opened,
        *drove,
        ("edit_file", "completed"),
        *opened,
        *drove,
    ]
    assert page.jobs == ["page", "snapshot", "act type", "act press"] * 2
    script = asyncio_read(workspace, todo_loop.SCRIPT_PATH)
    assert todo_loop.FIX in script and todo_loop.BUG not in script
    text = text_of(events)
    assert "Pressing Enter threw: TypeError: Cannot read properties of null" in text
    assert 'Adding a todo works after the fix: "Buy milk" is in the list' in text


def test_a_page_that_still_throws_after_the_fix_is_said_so() -> None:
    events, _ = run("native", Page(still_broken=True))
    text = text_of(events)
    assert "It still throws: TypeError" in text and "Adding a todo works" not in text


def test_a_todo_that_never_shows_is_not_called_a_success() -> None:
    events, _ = run("native", Page(never_shows=True))
    text = text_of(events)
    assert "did not show up in the list" in text and "Adding a todo works" not in text


def test_the_first_screen_offers_it() -> None:
    assert {"prompt": PROMPT, "detail": "drives the page it built, sees it throw, fixes it"} in examples()


def asyncio_read(workspace: Workspace, path: str) -> str:
    import asyncio

    return asyncio.run(workspace.read_text(path))
