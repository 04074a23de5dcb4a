"""Hostile zips through the UI's Import: a git working copy whose HEAD names one 8 MB blob 450 times
(3.6 GB of files from a 15 KB zip) and a history with two files at one path. Each is refused with a
message that says what was wrong, and the workspace, its files and their history, is as it was (the
history one after the user agreed to replace the workspace)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from buildsys.testing.import_bombs import HistoryFile, git_zip, history_zip
from tests.e2e.test_demo_scenarios import vfs
from tests.e2e.test_ui_export import import_zip

WAIT_MS = 120_000
MB = 1024 * 1024


def state(page: Page) -> object:
    return (vfs(page, "list", "/"), vfs(page, "readText", "/keep.md"), vfs(page, "history", "/keep.md"))


def refused(page: Page, path: Path, message: str) -> None:
    before = state(page)
    import_zip(page, path)
    expect(page.locator("#files-message")).to_contain_text(message, timeout=WAIT_MS)
    expect(page.locator("#files-message")).to_have_class("files-message failed")
    assert state(page) == before


def test_a_git_zip_naming_one_blob_450_times_is_refused_and_changes_nothing(
    app: Page, tmp_path: Path
) -> None:
    vfs(app, "writeText", "/keep.md", "# Kept\n")
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(git_zip(8 * MB, 450))
    refused(app, bomb, "Failed: the archive's HEAD commit would create more than 512.0 MB of files")


def test_a_damaged_history_is_refused_and_the_workspace_is_kept(app: Page, tmp_path: Path) -> None:
    vfs(app, "writeText", "/keep.md", "# Kept\n")
    vfs(app, "writeText", "/keep.md", "# Kept\n\nsecond version\n")
    damaged = tmp_path / "damaged-history.zip"
    damaged.write_bytes(history_zip(HistoryFile(paths=("/a.txt", "/a.txt"))))
    app.on("dialog", lambda dialog: dialog.accept())  # "Replace this workspace and its history with it?"
    refused(app, damaged, "the archive's history is damaged, nothing was imported: 2 live entries at /a.txt")
