"""An opened folder kept in step with the workspace (`folder-open`), on the origin private file system: it
has the same directory-handle interface as a folder the user picks, whose picker cannot be automated.
Workspace changes are written to disk; changes made on disk come in by "disk"; a file changed on both
sides is a conflict the user resolves, never overwritten; after a reload the folder is synced again. What
the folder's `.gitignore` excludes and `node_modules/` are left alone on both sides; empty folders come
across both ways."""

from __future__ import annotations

import base64
import io
import zipfile
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import wait_ready
from tests.e2e.test_demo_scenarios import vfs, wait_file

WAIT_MS = 60_000
BOTH = """async ([path, onDisk, inApp]) => window.agentlite.folder.exclusive(async () => {
  await (%s)(["write", path, onDisk]);
  await window.agentlite.vfs.writeText(path, inApp);
})"""
DISK = """async ([op, path, text]) => {
  let folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("project", { create: true });
  const parts = path.split("/").slice(1);
  for (const name of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(name, { create: true });
  const name = parts.at(-1);
  if (op === "remove") return folder.removeEntry(name);
  if (op === "mkdir") return void (await folder.getDirectoryHandle(name, { create: true }));
  if (op === "isdir") return folder.getDirectoryHandle(name).then(() => true, () => false);
  if (op === "write") {
    const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
    await writable.write(text);
    return writable.close();
  }
  try {
    return await (await (await folder.getFileHandle(name)).getFile()).text();
  } catch {
    return null;
  }
}"""


def disk(page: Page, op: str, path: str, text: str = "") -> Any:
    return page.evaluate(DISK, [op, path, text])


def wait_disk(page: Page, path: str, expected: str | None) -> None:
    for _ in range(300):
        if disk(page, "read", path) == expected:
            return
        page.wait_for_timeout(100)
    assert disk(page, "read", path) == expected, path


def change_both(page: Page, path: str, on_disk: str, in_app: str) -> None:
    """A change on disk and one in the app with no sync between them."""
    page.evaluate(BOTH % DISK, [path, on_disk, in_app])


def authors(page: Page, path: str) -> list[str]:
    return [v["author"] for v in vfs(page, "history", path)]


def sync(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.agentlite.folder.sync()")


def test_changes_go_both_ways_and_a_conflict_waits_for_the_user(app: Page) -> None:
    disk(app, "write", "/README.md", "# On disk\n")
    disk(app, "write", "/src/main.py", "print(1)\n")
    disk(app, "write", "/.git/HEAD", "ref: refs/heads/main\n")
    app.evaluate("() => window.agentlite.folder.openPrivate('project')")
    wait_file(app, "/src/main.py", "print(1)\n")
    assert authors(app, "/README.md") == ["disk"]
    assert vfs(app, "readText", "/.git/HEAD") is None
    expect(app.locator("[data-testid=folder-status]")).to_contain_text("project")

    vfs(app, "writeText", "/src/main.py", "print('from the app')\n")  # a workspace change goes to disk
    vfs(app, "writeText", "/src/new/util.py", "x = 1\n")
    wait_disk(app, "/src/main.py", "print('from the app')\n")
    wait_disk(app, "/src/new/util.py", "x = 1\n")

    disk(app, "write", "/notes.txt", "written outside\n")  # outside changes come in on demand
    disk(app, "remove", "/README.md")
    sync(app)  # (or already done: the browser may report the change itself, through FileSystemObserver)
    assert vfs(app, "readText", "/notes.txt") == "written outside\n"
    assert vfs(app, "readText", "/README.md") is None
    # The browser may report the new file twice (created empty, then written): each a change by "disk".
    assert set(authors(app, "/notes.txt")) == {"disk"} and authors(app, "/README.md") == ["disk", "disk"]

    change_both(app, "/src/main.py", "print('edited on disk, longer')\n", "print('edited in the app')\n")
    conflict = app.locator("[data-testid=folder-conflict][data-path='/src/main.py']")
    expect(conflict).to_be_visible(timeout=WAIT_MS)
    assert disk(app, "read", "/src/main.py") == "print('edited on disk, longer')\n"  # not overwritten
    assert vfs(app, "readText", "/src/main.py") == "print('edited in the app')\n"
    conflict.locator("[data-keep=disk]").click()
    wait_file(app, "/src/main.py", "print('edited on disk, longer')\n")
    expect(conflict).to_have_count(0)
    assert authors(app, "/src/main.py")[-1] == "disk"
    assert sync(app)["conflicts"] == [] and app.evaluate("() => window.agentlite.folder.conflicts()") == []

    change_both(app, "/notes.txt", "disk again, longer\n", "app again\n")
    expect(app.locator("[data-testid=folder-conflict][data-path='/notes.txt']")).to_be_visible(
        timeout=WAIT_MS
    )
    app.locator("[data-testid=folder-conflict][data-path='/notes.txt'] [data-keep=app]").click()
    wait_disk(app, "/notes.txt", "app again\n")
    assert vfs(app, "check") == []


def test_after_a_reload_the_folder_is_synced_again_and_nothing_is_lost(app: Page) -> None:
    disk(app, "write", "/a.txt", "one\n")
    app.evaluate("() => window.agentlite.folder.openPrivate('project')")
    wait_file(app, "/a.txt", "one\n")
    vfs(app, "writeText", "/a.txt", "two, from the app\n")
    wait_disk(app, "/a.txt", "two, from the app\n")

    app.reload()
    wait_ready(app)
    disk(app, "write", "/b.txt", "made while the app was away\n")
    status = app.locator("[data-testid=folder-status]")
    expect(status).to_contain_text("Open folder: project", timeout=WAIT_MS)
    sync(app)
    wait_file(app, "/b.txt", "made while the app was away\n")
    vfs(app, "writeText", "/a.txt", "three\n")
    wait_disk(app, "/a.txt", "three\n")


def test_what_git_ignores_and_node_modules_stay_untouched_on_both_sides(app: Page) -> None:
    disk(app, "write", "/.gitignore", "build/\n*.log\n")
    for path, text in IGNORED_ON_DISK.items():
        disk(app, "write", path, text)
    disk(app, "write", "/src/main.py", "print(1)\n")
    vfs(app, "writeText", "/debug.log", "the app's own log\n")  # ignored on disk: never written there
    app.evaluate("() => window.agentlite.folder.openPrivate('project')")
    wait_file(app, "/src/main.py", "print(1)\n")
    for path in ("/build/out.js", "/node_modules/x.js"):
        assert vfs(app, "readText", path) is None, path
    assert vfs(app, "readText", "/debug.log") == "the app's own log\n"
    note = app.locator("[data-testid=folder-skipped]")
    expect(note).to_have_text("not synced: node_modules/, 2 left out by .gitignore")

    vfs(app, "writeText", "/build/out.js", "built in the app\n")  # the agent writes where git ignores
    vfs(app, "writeText", "/node_modules/x.js", "patched in the app\n")
    disk(app, "write", "/debug.log", "more noise on disk\n")
    sync(app)
    vfs(app, "writeText", "/marker.txt", "after the others\n")  # syncs run in order: this one comes last
    wait_disk(app, "/marker.txt", "after the others\n")
    assert disk(app, "read", "/build/out.js") == IGNORED_ON_DISK["/build/out.js"]
    assert disk(app, "read", "/node_modules/x.js") == IGNORED_ON_DISK["/node_modules/x.js"]
    assert disk(app, "read", "/debug.log") == "more noise on disk\n"
    assert vfs(app, "readText", "/debug.log") == "the app's own log\n"
    assert app.evaluate("() => window.agentlite.folder.conflicts()") == []


def test_an_empty_folder_comes_across_both_ways(app: Page) -> None:
    vfs(app, "importZip", zip_with_folder("made-in-app/"))
    disk(app, "mkdir", "/made-on-disk")
    disk(app, "write", "/keep.txt", "kept\n")
    app.evaluate("() => window.agentlite.folder.openPrivate('project')")
    wait_file(app, "/keep.txt", "kept\n")
    assert {"path": "/made-on-disk", "kind": "dir"} in vfs(app, "list", "/")
    assert disk(app, "isdir", "/made-in-app") is True
    expect(app.locator("[data-testid=file-item][data-path='/made-on-disk']")).to_have_attribute(
        "data-kind", "dir"
    )

    disk(app, "remove", "/made-on-disk")  # deleted on disk: goes in the workspace too
    sync(app)
    assert {"path": "/made-on-disk", "kind": "dir"} not in vfs(app, "list", "/")
    assert disk(app, "isdir", "/made-in-app") is True


IGNORED_ON_DISK = {
    "/build/out.js": "compiled\n",
    "/debug.log": "noise\n",
    "/node_modules/x.js": "module.exports = 1;\n",
}


def zip_with_folder(name: str) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, "")
    return base64.b64encode(buffer.getvalue()).decode()
