"""A big project in the file tree (docs/folders.md, "A big tree"): after a folder of 2,500 files comes in,
the tree shows the top level with its folders collapsed and builds a folder's rows only when it opens (by
click or by keyboard); a refresh keeps what is open; a file the agent writes deep inside is revealed when
the editor follows it; a folder of 1,000 files opens in slices and ends with every row. Every shown row
keeps the test ids of the contract."""

from __future__ import annotations

import base64
import io
import zipfile
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs

WAIT_MS = 120_000
PACKAGES, SUBFOLDERS, FILES = 25, 10, 10  # 2,500 files, 2,775 entries: above the 2,000 of a big tree
ROWS = """() => [...document.querySelectorAll("[data-testid=file-tree] [role=treeitem]")].map((li) => ({
  testid: li.dataset.testid, path: li.dataset.path, kind: li.dataset.kind,
  expanded: li.getAttribute("aria-expanded"),
}))"""


def make_project(root: Path) -> Path:
    for index in range(PACKAGES * SUBFOLDERS * FILES):
        target = root / f"pkg{index // 100}" / f"sub{index // 10 % 10}" / f"module{index}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"VALUE = {index}\n")
    return root


def import_project(page: Page, root: Path) -> None:
    page.locator("[data-testid=folder-input]").set_input_files(str(make_project(root / "project")))
    expect(page.locator("#files-message")).to_have_text(
        "Imported 2,500 files from project as one change.", timeout=WAIT_MS
    )


def item(page: Page, path: str) -> Locator:
    return page.locator(f"[data-testid=file-item][data-path='{path}']")


def inside(page: Page, folder: str) -> Locator:
    return page.locator(f"[data-testid=file-item][data-path^='{folder}/']")


def assert_test_ids(page: Page) -> None:
    rows = page.evaluate(ROWS)
    assert rows
    for row in rows:
        assert row["testid"] == "file-item" and row["path"].startswith("/"), row
        assert row["kind"] in {"file", "dir"}, row
        assert (row["expanded"] in {"true", "false"}) == (row["kind"] == "dir"), row


def test_a_big_tree_builds_a_folder_when_it_opens(app: Page, tmp_path: Path) -> None:
    import_project(app, tmp_path)
    top = app.locator("[data-testid=file-item][aria-level='1']")
    expect(top).to_have_count(PACKAGES, timeout=WAIT_MS)
    expect(item(app, "/pkg3")).to_have_attribute("aria-expanded", "false")
    expect(inside(app, "/pkg3")).to_have_count(0)  # a collapsed folder has no rows inside
    assert_test_ids(app)

    item(app, "/pkg3").locator(":scope > .file-row").click()
    expect(item(app, "/pkg3")).to_have_attribute("aria-expanded", "true")
    expect(inside(app, "/pkg3")).to_have_count(SUBFOLDERS)
    expect(item(app, "/pkg3")).to_be_focused()

    app.keyboard.press("ArrowDown")
    expect(item(app, "/pkg3/sub0")).to_be_focused()
    expect(inside(app, "/pkg3/sub0")).to_have_count(0)
    app.keyboard.press("ArrowRight")  # builds the folder's rows
    expect(item(app, "/pkg3/sub0")).to_have_attribute("aria-expanded", "true")
    expect(inside(app, "/pkg3/sub0")).to_have_count(FILES)
    app.keyboard.press("ArrowDown")
    expect(item(app, "/pkg3/sub0/module300.py")).to_be_focused()
    app.keyboard.press("ArrowDown")
    expect(item(app, "/pkg3/sub0/module301.py")).to_be_focused()
    app.keyboard.press("Enter")
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/pkg3/sub0/module301.py", timeout=WAIT_MS)
    expect(view).to_have_text("VALUE = 301\n", timeout=WAIT_MS)
    assert_test_ids(app)

    vfs(app, "writeText", "/pkg3/sub0/added.py", "NEW = 1\n")  # a refresh keeps what is open
    expect(item(app, "/pkg3/sub0/added.py")).to_have_count(1, timeout=WAIT_MS)
    expect(item(app, "/pkg3/sub0")).to_have_attribute("aria-expanded", "true")
    expect(item(app, "/pkg3/sub0/module301.py")).to_have_attribute("aria-selected", "true")
    expect(inside(app, "/pkg4")).to_have_count(0)

    app.keyboard.press("ArrowLeft")  # from the file: up to its folder, then fold it
    expect(item(app, "/pkg3/sub0")).to_be_focused()
    app.keyboard.press("ArrowLeft")
    expect(item(app, "/pkg3/sub0")).to_have_attribute("aria-expanded", "false")
    expect(inside(app, "/pkg3/sub0")).to_have_count(0)


def test_a_file_the_agent_writes_deep_in_a_big_tree_is_revealed(
    page: Page, origin: str, tmp_path: Path
) -> None:
    deep = "/pkg7/sub2/written.py"
    with ModelServer() as server:
        server.script(
            Scripted(chunks=tool_call_chunks(("write_file", {"path": deep, "content": "DEEP = 1\n"}))),
            Scripted(chunks=text_chunks("Written.")),
        )
        start(page, origin, server)
        import_project(page, tmp_path)
        expect(item(page, "/pkg7")).to_have_attribute("aria-expanded", "false", timeout=WAIT_MS)
        send(page, "write a deep file")
        assert approve_through(page, card(page, "write_file")) == "completed"
        wait_idle(page)
    view = page.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", deep, timeout=WAIT_MS)  # the editor followed the write
    expect(item(page, deep)).to_have_attribute("aria-selected", "true", timeout=WAIT_MS)
    for folder in ("/pkg7", "/pkg7/sub2"):
        expect(item(page, folder)).to_have_attribute("aria-expanded", "true")
    expect(inside(page, "/pkg6")).to_have_count(0)
    assert_test_ids(page)


def test_a_folder_of_a_thousand_files_opens_in_slices_and_ends_whole(app: Page) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for index in range(1_000):
            archive.writestr(f"many/file{index:04}.txt", f"{index}\n")
    vfs(app, "importZip", base64.b64encode(buffer.getvalue()).decode())
    files = inside(app, "/many")
    expect(files).to_have_count(1_000, timeout=WAIT_MS)  # a small tree: open, as always
    folder = item(app, "/many")
    folder.locator(":scope > .file-row").click()
    expect(folder).to_have_attribute("aria-expanded", "false")
    expect(files).to_have_count(0)
    folder.press("ArrowRight")  # the first 400 rows now, the rest in the next tasks
    expect(files).to_have_count(1_000, timeout=WAIT_MS)
    paths = app.evaluate(
        """() => [...document.querySelectorAll("[data-path='/many'] [data-testid=file-item]")]
        .map((li) => li.dataset.path)"""
    )
    assert paths == [f"/many/file{index:04}.txt" for index in range(1_000)]
    folder.press("End")
    expect(item(app, "/many/file0999.txt")).to_be_focused()
