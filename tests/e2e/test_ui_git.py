"""The workspace as a git repository through the UI (`export-git`), checked with the real `git` CLI: the
unzipped export is a clean working copy with one commit per recorded turn that changed files (agent
turns carry the request and their tool calls); a zip of a git working copy imports its HEAD's files."""

from __future__ import annotations

import io
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.test_demo_scenarios import FINAL, card, vfs, wait_file, wait_reply, wait_status
from tests.e2e.test_ui_export import import_zip

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"}
WAIT_MS = 60_000


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=where, capture_output=True, env=GIT_ENV, check=True)
    return done.stdout.decode()


def export_git(page: Page, into: Path) -> Path:
    with page.expect_download(timeout=WAIT_MS) as download:
        page.locator("[data-testid=export-git]").click()
    target = into.with_suffix(".zip")
    download.value.save_as(target)
    with zipfile.ZipFile(target) as archive:
        archive.extractall(into)
    return into


def test_export_git_is_a_clean_repository_of_the_turns(app: Page, tmp_path: Path) -> None:
    started = int(time.time())
    vfs(app, "writeText", "/notes.md", "# Notes\n")
    app.fill("[data-testid=chat-input]", "Create a Button component")
    app.press("[data-testid=chat-input]", "Enter")
    assert wait_status(app, card(app, "create_file"), FINAL) == "completed"
    wait_reply(app, "Created /src/Button.tsx")
    vfs(app, "writeText", "/notes.md", "# Notes\n\nThe button is done.\n")
    vfs(app, "writeText", "/bin/data.bin", "\x00\x01binary-ish\n")

    where = export_git(app, tmp_path / "export")
    git(where, "fsck", "--strict", "--no-dangling")
    assert git(where, "status", "--porcelain", "--untracked-files=all") == ""
    log = [line.split("|", 2) for line in git(where, "log", "--reverse", "--format=%an|%at|%s").splitlines()]
    assert [author for author, _at, _subject in log] == ["user", "agent", "user", "user"]
    assert log[1][2] == "Create a Button component"
    assert "- create_file /src/Button.tsx" in git(where, "log", "-1", "--format=%B", "HEAD~2")
    times = [int(at) for _author, at, _subject in log]
    assert times == sorted(times) and started - 1 <= times[0] <= int(time.time())
    for path in ("/notes.md", "/src/Button.tsx", "/bin/data.bin"):
        assert (where / path[1:]).read_text() == vfs(app, "readText", path)
    assert git(where, "show", "HEAD~3:notes.md") == "# Notes\n"
    assert git(where, "ls-tree", "-r", "--name-only", "HEAD~2").split() == ["notes.md", "src/Button.tsx"]


def test_a_zip_of_a_git_working_copy_imports_its_head(app: Page, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for number in range(3):
        (repo / "src" / "app.js").write_text("// line\n" * 100 + f"export const n = {number};\n")
        git(repo, "add", "-A")
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", f"step {number}")
    git(repo, "gc", "-q")  # packed objects with deltas, as a clone holds them
    (repo / "src" / "app.js").write_text("uncommitted\n")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(repo.rglob("*")):
            archive.write(path, "repo/" + path.relative_to(repo).as_posix())
    (tmp_path / "repo.zip").write_bytes(buffer.getvalue())

    import_zip(app, tmp_path / "repo.zip")
    wait_file(app, "/src/app.js", "// line\n" * 100 + "export const n = 2;\n")
    assert [e["path"] for e in vfs(app, "list", "/")] == ["/src"]
    assert [e["path"] for e in vfs(app, "list", "/src")] == ["/src/app.js"]
    assert len(vfs(app, "history", "/src/app.js")) == 1
