"""A real folder dropped on the file tree, through Chromium's own drag and drop (DevTools' Input domain
hands the browser a path on disk, as the OS does when a folder is dragged from a file manager): the page
gets a real DataTransfer with directory entries, not a stand-in. Its files land where it is dropped as
one change, empty folders too, without `.git/`, `node_modules/` and what its `.gitignore` excludes."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.test_demo_scenarios import vfs, wait_file
from tests.e2e.test_ui_folders import WAIT_MS, make_folder, turns_of

SITE = {
    "index.html": "<h1>hi</h1>\n",
    "css/main.css": "body { color: red }\n",
    ".gitignore": "dist/\n",
    "dist/bundle.js": "built\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "node_modules/x/index.js": "module.exports = 1;\n",
}


def drop_from_disk(page: Page, folder: Path, target: str) -> None:
    """Drag `folder` from the disk onto the element `target`, as a user drags it from a file manager."""
    box = page.locator(target).first.bounding_box()
    assert box, target
    spot = {"x": box["x"] + 12, "y": box["y"] + 8}
    session = page.context.new_cdp_session(page)
    data = {"items": [], "files": [str(folder)], "dragOperationsMask": 1}  # 1: copy
    for kind in ("dragEnter", "dragOver", "drop"):
        session.send("Input.dispatchDragEvent", {"type": kind, **spot, "data": data})
    session.detach()


def test_a_folder_dragged_from_the_disk_lands_in_the_folder_it_is_dropped_on(
    app: Page, tmp_path: Path
) -> None:
    vfs(app, "writeText", "/web/keep.txt", "already here\n")
    site = make_folder(tmp_path / "site", SITE)
    (site / "empty").mkdir()
    expect(app.locator("[data-testid=file-item][data-path='/web']")).to_have_count(1)
    drop_from_disk(app, site, "[data-testid=file-item][data-path='/web'] > .file-row")

    status = app.locator("#files-message")
    expect(status).to_have_text("Imported 3 files from site as one change.", timeout=WAIT_MS)
    for name in ("index.html", "css/main.css", ".gitignore"):
        wait_file(app, f"/web/{name}", SITE[name])
    listing = {e["path"]: e["kind"] for e in vfs(app, "list", "/web")}
    assert listing.get("/web/empty") == "dir", listing
    for name in ("dist/bundle.js", ".git/HEAD", "node_modules/x/index.js"):
        assert vfs(app, "readText", f"/web/{name}") is None, name
    assert len(turns_of(app, ["/web/index.html", "/web/css/main.css", "/web/.gitignore"])) == 1
    assert vfs(app, "readText", "/web/keep.txt") == "already here\n"
    note = app.locator("[data-testid=import-skipped]")
    expect(note).to_contain_text("1 in .git/")
    expect(note).to_contain_text("1 in node_modules/")
    expect(note).to_contain_text("1 left out by .gitignore")
    assert vfs(app, "check") == []
