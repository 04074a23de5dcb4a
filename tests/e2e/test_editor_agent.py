"""The editor reaches the agent: the open file and the selected lines go with a message into the model's
request, and `edit_current_editor_document` writes the file open in the editor — the one open when the
call runs, when the user opened another while the call waited for approval."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_file

WAIT_MS = 60_000


def open_in_editor(page: Page, path: str) -> None:
    page.locator(f"[data-testid=file-item][data-path='{path}'] > .file-row").click()
    expect(page.locator("[data-testid=file-view]")).to_have_attribute("data-path", path, timeout=WAIT_MS)


def user_messages(server: ModelServer, nth: int = 0) -> list[Any]:
    body: dict[str, Any] = server.completions()[nth].body
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def test_the_open_file_and_the_selected_lines_go_with_the_message(page: Page, origin: str) -> None:
    with ModelServer() as server:
        server.script(Scripted(chunks=text_chunks("It counts to three.")))
        start(page, origin, server)
        vfs(page, "writeText", "/notes.txt", "one\ntwo\nthree\nfour\n")
        open_in_editor(page, "/notes.txt")
        page.locator("[data-testid=file-view]").click()
        page.keyboard.press("Control+Home")
        page.keyboard.press("ArrowDown")  # line 2
        page.keyboard.press("Shift+ArrowDown")
        page.keyboard.press("Shift+End")  # lines 2-3, "two\nthree"
        send(page, "what do these lines do?")
        wait_idle(page)
        sent = json.dumps(user_messages(server))
    assert "Current document: /notes.txt" in sent
    assert json.dumps("Selected text:\n(lines 2-3)\ntwo\nthree")[1:-1] in sent


def test_the_editor_tool_edits_the_open_file_in_the_app(page: Page, origin: str) -> None:
    with ModelServer() as server:
        server.script(
            Scripted(chunks=tool_call_chunks(("edit_current_editor_document", {"content": "# Tidy\n"}))),
            Scripted(chunks=text_chunks("Tidied.")),
        )
        start(page, origin, server)
        vfs(page, "writeText", "/doc.md", "#  messy\n")
        open_in_editor(page, "/doc.md")
        send(page, "tidy the open document")
        assert approve_through(page, card(page, "edit_current_editor_document")) == "completed"
        wait_idle(page)
        results = tool_results(server)
    wait_file(page, "/doc.md", "# Tidy\n")
    expect(page.locator("[data-testid=file-view]")).to_have_text("# Tidy\n", timeout=WAIT_MS)
    assert "/doc.md" in results[0]


def test_the_editor_tool_follows_the_file_opened_while_it_waited(page: Page, origin: str) -> None:
    with ModelServer() as server:
        server.script(
            Scripted(chunks=tool_call_chunks(("edit_current_editor_document", {"content": "changed\n"}))),
            Scripted(chunks=text_chunks("Done.")),
        )
        start(page, origin, server)
        vfs(page, "writeText", "/first.txt", "first\n")
        vfs(page, "writeText", "/second.txt", "second\n")
        open_in_editor(page, "/first.txt")
        send(page, "rewrite the open document")
        tool = card(page, "edit_current_editor_document")
        expect(tool).to_have_attribute("data-status", "awaiting-approval", timeout=WAIT_MS)
        open_in_editor(page, "/second.txt")
        assert approve_through(page, tool) == "completed"
        wait_idle(page)
    wait_file(page, "/second.txt", "changed\n")
    assert vfs(page, "readText", "/first.txt") == "first\n"
