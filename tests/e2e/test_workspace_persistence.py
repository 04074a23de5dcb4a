"""The workspace on the browser's IndexedDB: files and history survive a reload, and the undo of a
multi-file agent turn, a reload, and the undo of that undo each give back the exact earlier bytes
(issue 8, scenario 12)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.workspace_support import (
    assert_consistent,
    final_reply,
    sha256,
    tool_round,
    vfs,
    wait_for_reply,
)

A0 = "# notes\nalpha line\nünïcödé ✓\n" + "filler\n" * 200
B0 = "export const title = 'Old';\n" + "// padding\n" * 120
A1 = A0.replace("alpha line", "alpha line, edited by the agent")
B1 = B0.replace("'Old'", "'New ✨'")
C1 = "created by the agent\n" * 50
PATHS = ["/proj/a.txt", "/proj/b.ts", "/proj/c.md"]


def contents(page: Page) -> list[str | None]:
    return [vfs(page, "readText", path) for path in PATHS]


def reload(page: Page) -> None:
    page.reload()
    wait_ready(page)


def test_files_and_history_survive_a_reload(app: Page) -> None:
    texts = ["one\n", "one\ntwo\n", "one\ntwo\nthree ✓\n"]
    for text in texts:
        vfs(app, "writeText", "/keep/log.txt", text)
    vfs(app, "writeText", "/keep/other.txt", "other")
    before = vfs(app, "history", "/keep/log.txt")
    reload(app)
    assert vfs(app, "readText", "/keep/log.txt") == texts[-1]
    assert vfs(app, "readText", "/keep/other.txt") == "other"
    after = vfs(app, "history", "/keep/log.txt")
    assert after == before
    assert [h["sha256"] for h in after] == [sha256(t) for t in texts]
    assert_consistent(app, ["/keep/log.txt", "/keep/other.txt"])


def agent_turn(page: Page, origin: str, model_server: Any) -> str:
    """Seed a, b as the user; one agent turn edits a and b and creates c. Returns the turn id."""
    model_server.script(
        tool_round(
            (
                "edit_file",
                {
                    "path": PATHS[0],
                    "originalCode": "alpha line",
                    "newCode": "alpha line, edited by the agent",
                },
            ),
            ("edit_file", {"path": PATHS[1], "originalCode": "'Old'", "newCode": "'New ✨'"}),
            ("create_file", {"path": PATHS[2], "content": C1}),
        ),
        final_reply("All three files are written."),
    )
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    vfs(page, "writeText", PATHS[0], A0)
    vfs(page, "writeText", PATHS[1], B0)
    send(page, "edit a and b, create c")
    wait_for_reply(page, "All three files are written.")
    assert contents(page) == [A1, B1, C1]
    turns = {vfs(page, "history", path)[-1]["turn"] for path in PATHS}
    assert len(turns) == 1, f"the agent's changes are not one turn: {turns}"
    return turns.pop()


def test_undo_of_a_multi_file_turn_reload_and_undo_again(page: Page, origin: str, model_server: Any) -> None:
    turn = agent_turn(page, origin, model_server)

    undo = vfs(page, "undoTurn", turn)
    assert undo["conflicts"] == [] and sorted(undo["paths"]) == sorted(PATHS)
    assert contents(page) == [A0, B0, None]
    assert_consistent(page, PATHS)

    reload(page)
    assert contents(page) == [A0, B0, None]
    redo = vfs(page, "undoTurn", undo["turn"])  # the undo is itself a recorded turn
    assert redo["conflicts"] == []
    assert contents(page) == [A1, B1, C1]

    reload(page)
    assert contents(page) == [A1, B1, C1]
    assert_consistent(page, PATHS)
    vfs(page, "restoreBefore", turn)
    assert contents(page) == [A0, B0, None]
    history = vfs(page, "history", PATHS[0])
    assert [h["sha256"] for h in history] == [sha256(t) for t in (A0, A1, A0, A1, A0)]
