"""Export and import through the UI: a zip with history round-trips (export -> change -> import gives
byte-identical files, the same history, and the same zip again); a zip of files only is added as one
change, keeping the workspace's own history."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.test_demo_scenarios import vfs, wait_file

WAIT_MS = 60_000
FILES = {
    "/src/main.py": "print('café ✓')\n",
    "/src/util/strings.py": "def shout(s):\n    return s.upper()\n",
    "/notes.md": "# Notes\n\nno newline at the end",
}


def snapshot(page: Page) -> dict[str, object]:
    """The folders' listings, and each file's text and full history (an absent file: None and [])."""
    result: dict[str, object] = {folder: vfs(page, "list", folder) for folder in ("/", "/src", "/src/util")}
    for path in [*FILES, "/extra.txt"]:
        result[path] = (vfs(page, "readText", path), vfs(page, "history", path))
    return result


def export(page: Page, history: bool, tmp_path: Path, name: str) -> bytes:
    box = page.locator("#export-history")
    box.set_checked(history)
    with page.expect_download() as download:
        page.locator("[data-testid=export-workspace]").click()
    target = tmp_path / name
    download.value.save_as(target)
    return target.read_bytes()


def import_zip(page: Page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        page.locator("[data-testid=import-workspace]").click()
    chooser.value.set_files(str(path))


def test_export_change_import_round_trips_files_and_history(app: Page, tmp_path: Path) -> None:
    for path, text in FILES.items():
        vfs(app, "writeText", path, text)
    vfs(app, "writeText", "/notes.md", FILES["/notes.md"] + "\nmore")
    vfs(app, "writeText", "/notes.md", FILES["/notes.md"])
    before = snapshot(app)
    first = export(app, True, tmp_path, "with-history.zip")
    assert first[:2] == b"PK"

    vfs(app, "writeText", "/src/main.py", "changed\n")
    vfs(app, "writeText", "/extra.txt", "not in the zip\n")
    app.on("dialog", lambda dialog: dialog.accept())
    import_zip(app, tmp_path / "with-history.zip")
    wait_file(app, "/extra.txt", None)
    wait_file(app, "/src/main.py", FILES["/src/main.py"])
    assert snapshot(app) == before
    expect(app.locator("[data-testid=file-item][data-path='/extra.txt']")).to_have_count(0, timeout=WAIT_MS)
    assert export(app, True, tmp_path, "again.zip") == first


def test_files_only_zip_imports_as_one_change(app: Page, tmp_path: Path) -> None:
    for path, text in FILES.items():
        vfs(app, "writeText", path, text)
    files_only = export(app, False, tmp_path, "files.zip")
    assert b"history/manifest.json" not in files_only
    vfs(app, "writeText", "/src/main.py", "changed\n")
    import_zip(app, tmp_path / "files.zip")
    wait_file(app, "/src/main.py", FILES["/src/main.py"])
    history = vfs(app, "history", "/src/main.py")
    assert [v["op"] for v in history][:2] == ["create", "write"] and len(history) == 3, history
    assert vfs(app, "readText", "/notes.md") == FILES["/notes.md"]
