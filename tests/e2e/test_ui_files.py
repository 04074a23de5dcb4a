"""The file tree and the editor: folders fold, keyboard opens files, the context menu creates, renames,
deletes and downloads, drag and drop moves, the user's typing is saved as the user's version; and the
README's chat screenshot (docs/screenshot-chat.png), taken while a live tool preview streams."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import open_app, send
from tests.e2e.test_demo_scenarios import APP_TSX, FINAL, card, vfs, wait_file, wait_status

WAIT_MS = 60_000
DOCS = Path(__file__).resolve().parents[2] / "docs"


def item(page: Page, path: str) -> Locator:
    return page.locator(f"[data-testid=file-item][data-path='{path}']")


def row(page: Page, path: str) -> Locator:
    return item(page, path).locator(":scope > .file-row")


def dismiss_storage_notice(page: Page) -> None:
    """Once the browser has answered the persistence request, dismiss its warning (README screenshots)."""
    page.locator("[data-testid=app][data-storage]").wait_for(state="attached", timeout=WAIT_MS)
    warning = page.locator("[data-testid=storage-warning]")
    if warning.count():
        page.click("[data-testid=storage-warning-dismiss]")
    expect(warning).to_have_count(0)


def menu_action(page: Page, path: str, action: str) -> None:
    row(page, path).click(button="right")
    page.locator(f".file-menu [data-action={action}]").click()


def test_folders_fold_and_keyboard_opens_files(app: Page) -> None:
    vfs(app, "writeText", "/src/app.py", "print('hi')\n")
    vfs(app, "writeText", "/readme.md", "# Read me\n")
    folder = item(app, "/src")
    expect(folder).to_have_attribute("data-kind", "dir", timeout=WAIT_MS)
    expect(folder).to_have_attribute("aria-expanded", "true")
    expect(item(app, "/src/app.py")).to_be_visible()
    assert item(app, "/src/app.py").locator(".file-icon").get_attribute("data-glyph") == "PY"
    row(app, "/src").click()
    expect(folder).to_have_attribute("aria-expanded", "false")
    expect(item(app, "/src/app.py")).to_be_hidden()
    folder.press("ArrowRight")
    expect(item(app, "/src/app.py")).to_be_visible()
    folder.press("ArrowDown")
    expect(item(app, "/src/app.py")).to_be_focused()
    app.keyboard.press("Enter")
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/src/app.py", timeout=WAIT_MS)
    expect(view).to_have_text("print('hi')\n", timeout=WAIT_MS)


def test_typing_is_saved_as_a_user_version(app: Page) -> None:
    vfs(app, "writeText", "/edit.txt", "hello\n")
    row(app, "/edit.txt").click()
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/edit.txt", timeout=WAIT_MS)
    view.click()
    app.keyboard.press("Control+End")
    app.keyboard.type("world")
    wait_file(app, "/edit.txt", "hello\nworld")
    history = vfs(app, "history", "/edit.txt")
    assert len(history) == 2, history  # the typing is ONE version: saves are debounced
    assert history[-1]["author"] == "user"
    expect(app.locator("[data-testid=version-item]")).to_have_count(2, timeout=WAIT_MS)


def test_ctrl_z_undoes_the_users_typing_but_not_the_workspaces_text(app: Page) -> None:
    vfs(app, "writeText", "/undo.txt", "hello\n")
    row(app, "/undo.txt").click()
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/undo.txt", timeout=WAIT_MS)
    view.click()
    app.keyboard.press("Control+End")
    app.keyboard.type("typo")
    wait_file(app, "/undo.txt", "hello\ntypo")
    app.keyboard.press("Control+z")
    wait_file(app, "/undo.txt", "hello\n")
    app.keyboard.press("Control+z")  # nothing left to undo: the text the file opened with stays
    app.keyboard.type("!")
    wait_file(app, "/undo.txt", "hello\n!")
    assert [entry["author"] for entry in vfs(app, "history", "/undo.txt")][1:] == ["user"] * 3


def test_context_menu_new_rename_delete_and_download(app: Page) -> None:
    vfs(app, "writeText", "/docs/keep.md", "keep\n")
    answers = iter(["new.md", "renamed.md"])
    app.on("dialog", lambda dialog: dialog.accept(next(answers, "")))
    menu_action(app, "/docs", "new-file")
    wait_file(app, "/docs/new.md", "")
    menu_action(app, "/docs/new.md", "rename")
    wait_file(app, "/docs/renamed.md", "")
    assert vfs(app, "readText", "/docs/new.md") is None
    with app.expect_download() as download:
        menu_action(app, "/docs/keep.md", "download")
    assert download.value.suggested_filename == "keep.md"
    assert Path(download.value.path()).read_text() == "keep\n"
    menu_action(app, "/docs/renamed.md", "delete")
    wait_file(app, "/docs/renamed.md", None)
    expect(item(app, "/docs/renamed.md")).to_have_count(0, timeout=WAIT_MS)


def test_context_menu_new_folder(app: Page) -> None:
    vfs(app, "writeText", "/docs/keep.md", "keep\n")
    app.on("dialog", lambda dialog: dialog.accept("drafts"))
    menu_action(app, "/docs", "new-folder")
    folder = item(app, "/docs/drafts")
    expect(folder).to_have_attribute("data-kind", "dir", timeout=WAIT_MS)
    listed = {entry["path"]: entry["kind"] for entry in vfs(app, "list", "/docs")}
    assert listed == {"/docs/drafts": "dir", "/docs/keep.md": "file"}
    assert vfs(app, "history", "/docs/drafts")[-1]["author"] == "user"


def test_drag_a_file_into_a_folder_moves_it(app: Page) -> None:
    vfs(app, "writeText", "/lib/util.js", "export const x = 1;\n")
    vfs(app, "writeText", "/loose.js", "export const y = 2;\n")
    row(app, "/loose.js").drag_to(row(app, "/lib"))
    wait_file(app, "/lib/loose.js", "export const y = 2;\n")
    assert vfs(app, "readText", "/loose.js") is None
    expect(item(app, "/lib/loose.js")).to_have_count(1, timeout=WAIT_MS)
    ops = [v["op"] for v in vfs(app, "history", "/lib/loose.js")]
    assert ops == ["create", "move"], ops


def test_chat_screenshot_with_a_live_tool_preview(page: Page, origin: str) -> None:
    open_app(page, origin, dialect="ndjson")
    dismiss_storage_notice(page)
    vfs(page, "writeText", "/src/App.tsx", APP_TSX)
    row(page, "/src/App.tsx").click()
    expect(page.locator("[data-testid=file-view]")).to_have_text(APP_TSX, timeout=WAIT_MS)
    send(page, "write a long file")
    write = card(page, "create_file")
    preview = write.locator("[data-testid=tool-preview]")
    page.wait_for_function(
        "(el) => el && el.textContent.split('\\n').length > 12", arg=preview.element_handle(timeout=WAIT_MS)
    )
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "screenshot-chat.png"))
    assert wait_status(page, write, FINAL) == "completed"
    expect(item(page, "/notes/long-notes.md")).to_have_count(1, timeout=WAIT_MS)
