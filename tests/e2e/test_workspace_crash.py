"""The page is closed in the middle of a large multi-file write (issue 8, scenario 5; issue 4): after
reopening, every file is at its old or its new version and the history is consistent."""

from __future__ import annotations

import base64
import io
import time
import zipfile
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.test_ui_settings import open_settings
from tests.e2e.workspace_support import assert_consistent, final_reply, tool_round, vfs

FILES = 6
SIZE_LINES = 12_000  # about 300 KB per file


def old(index: int) -> str:
    return "".join(f"old {index} line {n}\n" for n in range(SIZE_LINES))


def new(index: int) -> str:
    return "".join(f"new {index} line {n} ✓\n" for n in range(SIZE_LINES))


def paths(folder: str) -> list[str]:
    return [f"/{folder}/f{index}.txt" for index in range(FILES)]


def wait_until(condition: Callable[[], bool], page: Page, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the agent did not get that far"
        page.wait_for_timeout(100)


def reopen(page: Page, origin: str) -> Page:
    fresh = page.context.new_page()
    page.close()
    fresh.goto(f"{origin}/index.html")
    wait_ready(fresh)
    return fresh


def assert_old_or_new(page: Page, files: list[str]) -> list[bool]:
    """Each file holds exactly its old or its new text; returns which are new."""
    states = []
    for index, path in enumerate(files):
        text = vfs(page, "readText", path)
        assert text in (old(index), new(index)), f"{path} is torn: {None if text is None else text[:80]!r}"
        states.append(text == new(index))
    assert_consistent(page, files)
    return states


def test_closing_during_an_agent_turn_that_writes_several_files(
    page: Page, origin: str, model_server: Any
) -> None:
    files = paths("turn")
    # Each round writes one file (a whole new text through one edit, which asks like an overwrite: the
    # chat runs overwrites unasked here). From the third round on the server is slow, so the page is surely
    # closed while the turn is still writing, however long the agent takes over the first two.
    rounds = [
        tool_round(
            ("edit_file", {"path": p, "originalCode": old(i), "newCode": new(i)}),
            chunk_delay=0.3 if i < 2 else 30.0,
        )
        for i, p in enumerate(files)
    ]
    model_server.script(*rounds, final_reply("All written."))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    open_settings(page)
    page.check("input[name=auto_approve][value=overwrite]")
    page.click("[data-testid=settings-save]")
    for index, path in enumerate(files):
        vfs(page, "writeText", path, old(index))
    send(page, "rewrite every file")
    wait_until(lambda: len(vfs(page, "history", files[1])) > 1, page)
    page = reopen(page, origin)
    states = assert_old_or_new(page, files)
    assert states[0] and states[1] and not all(states), f"not closed in the middle of the turn: {states}"
    assert_conversation_up_to_a_finished_round(page)


def assert_conversation_up_to_a_finished_round(page: Page) -> None:
    """The restored chat shows the user's message and the rounds that finished before the close."""
    user = page.locator("[data-testid=message][data-role=user] .message-body")
    user.first.wait_for(timeout=60_000)
    assert user.first.inner_text() == "rewrite every file"
    done = page.locator("[data-testid=tool-card][data-tool=edit_file][data-status=completed]")
    done.first.wait_for(timeout=60_000)
    assert page.locator("[data-testid=message][data-state=streaming]").count() == 0


def big_zip() -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, path in enumerate(paths("import")):
            archive.writestr(f"files{path}", new(index))
    return base64.b64encode(buffer.getvalue()).decode()


def test_closing_during_a_large_import(app: Page, origin: str) -> None:
    files = paths("import")
    for index, path in enumerate(files):
        vfs(app, "writeText", path, old(index))
    app.evaluate("(zip) => { window.agentlite.vfs.importZip(zip); }", big_zip())
    app.wait_for_timeout(400)  # the import is under way: hashing, encoding, then ONE commit
    page = reopen(app, origin)
    states = assert_old_or_new(page, files)
    assert len(set(states)) == 1, f"an import is one change, but only some files were replaced: {states}"
