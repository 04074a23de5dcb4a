"""The history panel of the open file: versions with op, turn, author and time; diffs between versions;
undo of the newest change and revert of one hunk, each checked against the workspace exactly as the
diff showed it. Also writes the README's history screenshot (docs/screenshot-history.png)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import send
from tests.e2e.test_demo_scenarios import APP_TSX, FINAL, card, vfs, wait_file, wait_reply, wait_status
from tests.e2e.test_ui_files import dismiss_storage_notice

WAIT_MS = 60_000
DOCS = Path(__file__).resolve().parents[2] / "docs"
LINES = [f"line {n}\n" for n in range(1, 21)]
BASE = "".join(LINES)
TWO_CHANGES = BASE.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n")


def open_file(page: Page, path: str) -> None:
    page.locator(f"[data-testid=file-item][data-path='{path}'] >> nth=0").click()
    expect(page.locator("[data-testid=file-view]")).to_have_attribute("data-path", path, timeout=WAIT_MS)


def versions(page: Page) -> Locator:
    return page.locator("[data-testid=history-panel] [data-testid=version-item]")


def diff_lines(page: Page, kind: str) -> list[str]:
    return page.locator(f"[data-testid=history-panel] .diff-line.{kind} .diff-text").all_text_contents()


def test_versions_show_op_author_turn_and_diff_against_parent(app: Page) -> None:
    vfs(app, "writeText", "/notes.txt", BASE)
    vfs(app, "writeText", "/notes.txt", TWO_CHANGES)
    open_file(app, "/notes.txt")
    expect(versions(app)).to_have_count(2, timeout=WAIT_MS)
    history = vfs(app, "history", "/notes.txt")
    assert [v.get_attribute("data-version") for v in versions(app).all()] == ["2", "1"]
    for item, record in zip(versions(app).all(), reversed(history), strict=True):
        text = item.inner_text()
        assert record["op"] in text and record["turn"] in text and "you" in text
    expect(app.locator("[data-testid=version-item][data-version='2']")).to_have_attribute(
        "aria-selected", "true"
    )
    expect(app.locator("[data-testid=history-panel] .diff-hunk-head")).to_have_count(2, timeout=WAIT_MS)
    assert diff_lines(app, "del") == ["-line 2", "-line 18"]
    assert diff_lines(app, "add") == ["+line two", "+line eighteen"]
    assert app.locator("[data-testid=file-view]").text_content() == TWO_CHANGES

    app.locator("[data-testid=version-item][data-version='1']").click()
    expect(app.locator("[data-testid=history-panel] .diff-line.add")).to_have_count(20, timeout=WAIT_MS)
    assert diff_lines(app, "del") == []


def test_diff_between_any_two_versions(app: Page) -> None:
    vfs(app, "writeText", "/a.txt", "one\n")
    vfs(app, "writeText", "/a.txt", "one\ntwo\n")
    vfs(app, "writeText", "/a.txt", "one\ntwo\nthree\n")
    open_file(app, "/a.txt")
    expect(versions(app)).to_have_count(3, timeout=WAIT_MS)
    expect(app.locator("[data-testid=history-panel] .diff-line.add")).to_have_count(1, timeout=WAIT_MS)
    app.locator("[data-testid=history-panel] .diff-base").select_option("1")
    expect(app.locator("[data-testid=history-panel] .diff-line.add")).to_have_count(2, timeout=WAIT_MS)
    assert diff_lines(app, "add") == ["+two", "+three"]
    assert app.locator("[data-testid=history-panel] .revert-hunk").count() == 0


def test_undo_change_restores_the_previous_version(app: Page) -> None:
    vfs(app, "writeText", "/undo.txt", BASE)
    vfs(app, "writeText", "/undo.txt", TWO_CHANGES)
    open_file(app, "/undo.txt")
    expect(versions(app)).to_have_count(2, timeout=WAIT_MS)
    app.locator("[data-testid=undo-change]").click()
    wait_file(app, "/undo.txt", BASE)
    expect(versions(app)).to_have_count(3, timeout=WAIT_MS)
    expect(app.locator("[data-testid=file-view]")).to_have_text(BASE, timeout=WAIT_MS)
    newest = vfs(app, "history", "/undo.txt")[-1]
    assert newest["author"] == "user" and "undo" in newest["note"]
    # the diff of the undo shows exactly what it changed back
    assert diff_lines(app, "add") == ["+line 2", "+line 18"]
    assert diff_lines(app, "del") == ["-line two", "-line eighteen"]


def test_revert_one_hunk_changes_only_that_hunk(app: Page) -> None:
    vfs(app, "writeText", "/hunks.txt", BASE)
    vfs(app, "writeText", "/hunks.txt", TWO_CHANGES)
    open_file(app, "/hunks.txt")
    heads = app.locator("[data-testid=history-panel] .diff-hunk-head")
    expect(heads).to_have_count(2, timeout=WAIT_MS)
    second = heads.nth(1)
    assert "line eighteen" in app.locator("[data-testid=history-panel] .diff").inner_text()
    second.locator(".revert-hunk").click()
    expected = TWO_CHANGES.replace("line eighteen\n", "line 18\n")
    wait_file(app, "/hunks.txt", expected)
    expect(app.locator("[data-testid=file-view]")).to_have_text(expected, timeout=WAIT_MS)
    expect(versions(app)).to_have_count(3, timeout=WAIT_MS)
    newest = vfs(app, "history", "/hunks.txt")[-1]
    assert newest["author"] == "user" and newest["note"] == "revert hunk 1 of version 2"


def test_history_follows_the_agent_live_and_screenshot(app: Page) -> None:
    dismiss_storage_notice(app)
    vfs(app, "writeText", "/src/App.tsx", APP_TSX)
    open_file(app, "/src/App.tsx")
    expect(versions(app)).to_have_count(1, timeout=WAIT_MS)
    send(app, "Change the title of App.tsx to 'Hello Lite'")
    assert wait_status(app, card(app, "edit_file"), FINAL) == "completed"
    wait_reply(app, "Done: the title")
    edited = APP_TSX.replace("Old Title", "Hello Lite")
    expect(app.locator("[data-testid=file-view]")).to_have_text(edited, timeout=WAIT_MS)
    expect(versions(app)).to_have_count(2, timeout=WAIT_MS)
    newest = app.locator("[data-testid=version-item][data-version='2']")
    expect(newest).to_contain_text("agent")
    assert diff_lines(app, "add") == ["+      <h1>Hello Lite</h1>"]
    DOCS.mkdir(exist_ok=True)
    app.screenshot(path=str(DOCS / "screenshot-history.png"))
