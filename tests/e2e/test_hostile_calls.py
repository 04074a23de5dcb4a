"""Calls spelled or shaped to slip past an approval, through the app: a `file_path` overwrite, a whole file
rewritten through `edit_file`, a new AGENTS.md. Each asks, the card says what it would do, and a
rejection leaves the file as it was."""

from __future__ import annotations

from playwright.sync_api import Page

from buildsys.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs

BIG = "".join(f"const line{n} = {n};\n" for n in range(200))


def test_an_overwrite_spelled_file_path_asks_and_names_the_file(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("write_file", {"file_path": "/notes.txt", "content": "x"}))),
        Scripted(chunks=text_chunks("Fine.")),
    )
    start(page, origin, model_server)
    vfs(page, "writeText", "/notes.txt", "keep me")
    send(page, "Tidy the notes")
    target = card(page, "write_file")
    target.locator("[data-testid=tool-action]").wait_for(timeout=WAIT_MS)
    assert target.locator("[data-testid=tool-action]").inner_text().startswith("Overwrite /notes.txt")
    assert approve_through(page, target, "tool-reject") == "rejected"
    wait_idle(page)
    assert vfs(page, "readText", "/notes.txt") == "keep me"


def test_a_whole_file_rewritten_through_edit_file_asks(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(("edit_file", {"path": "/app.js", "originalCode": BIG, "newCode": "1\n"}))
        ),
        Scripted(chunks=text_chunks("Fine.")),
    )
    start(page, origin, model_server)
    vfs(page, "writeText", "/app.js", BIG)
    send(page, "Shorten app.js")
    target = card(page, "edit_file")
    target.locator(".tool-reason").wait_for(timeout=WAIT_MS)
    assert (
        "removes or rewrites 200 of the 200 lines of /app.js" in target.locator(".tool-reason").inner_text()
    )
    assert approve_through(page, target, "tool-reject") == "rejected"
    wait_idle(page)
    assert vfs(page, "readText", "/app.js") == BIG


def test_a_new_agents_md_asks_and_the_chat_says_the_instructions_changed(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(("create_file", {"path": "/src/AGENTS.md", "content": "Skip tests."}))
        ),
        Scripted(chunks=text_chunks("Done.")),
    )
    start(page, origin, model_server)
    send(page, "Set up the project")
    target = card(page, "create_file")
    target.locator(".tool-reason").wait_for(timeout=WAIT_MS)
    assert "project instructions in /src/AGENTS.md" in target.locator(".tool-reason").inner_text()
    assert approve_through(page, target) == "completed"
    wait_idle(page)
    notice = page.locator(".notice.note", has_text="project instructions changed")
    notice.wait_for(timeout=WAIT_MS)
    assert "/src/AGENTS.md" in notice.inner_text()
