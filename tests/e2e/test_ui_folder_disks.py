"""An opened folder on a disk as Windows and macOS have them: case-insensitive, refusing some names, handing
out NFD names. The folder is on the origin private file system, its directory handles made case-folding
here (a name finds the entry of any case; Windows names like `aux.js` and `a:b`, and anything named
`refused-*`, are refused with a DOMException): the same handles the mirror gets from a disk of that kind.

- no spelling of `.git` in the workspace (`/.GIT/hooks/pre-commit`) ever reaches the disk's `.git/`;
- a case-only rename (`README.md` -> `readme.md`) keeps the file on disk and in the workspace;
- a file too big for the workspace, a refused name and an odd name are skipped, each with its reason, and
  the rest syncs;
- an NFD name on disk is one file, in NFC in the workspace, never renamed back and forth."""

from __future__ import annotations

import base64
import io
import zipfile
from collections.abc import Mapping
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.test_demo_scenarios import vfs, wait_file
from tests.e2e.test_ui_folder_open import disk, sync, wait_disk

CASE_FOLDING = """() => {
  const proto = FileSystemDirectoryHandle.prototype;
  if (proto.caseFolding) return;
  const raw = { file: proto.getFileHandle, directory: proto.getDirectoryHandle, remove: proto.removeEntry };
  const refused = (name) => /^(aux|con|nul|prn)(\\.|$)/i.test(name) || /[:*?"<>|]/.test(name)
    || name.startsWith("refused-");
  async function folded(folder, name, kind) {
    for await (const [other, entry] of folder.entries())
      if (other.toLowerCase() === name.toLowerCase() && (!kind || entry.kind === kind)) return entry;
    return null;
  }
  const lookup = (kind) => async function (name, options = {}) {
    const found = await folded(this, name, kind);
    if (found) return found;
    if (options.create && refused(name))
      throw new DOMException(`the disk refuses ${name}`, "NotAllowedError");
    return raw[kind].call(this, name, options);
  };
  proto.getFileHandle = lookup("file");
  proto.getDirectoryHandle = lookup("directory");
  proto.removeEntry = async function (name, options) {
    const found = await folded(this, name, null);
    return raw.remove.call(this, found ? found.name : name, options);
  };
  proto.caseFolding = true;
}"""
NAMES = """async (path) => {
  let folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("project");
  for (const name of path.split("/").filter(Boolean)) folder = await folder.getDirectoryHandle(name);
  const names = [];
  for await (const name of folder.keys()) names.push(name);
  return names.sort();
}"""
BIG = """async (size) => {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle("project", { create: true });
  const writable = await (await folder.getFileHandle("big.bin", { create: true })).createWritable();
  await writable.write(new Uint8Array(size));
  await writable.close();
}"""


def on_disk(page: Page, folder: str = "/") -> list[str]:
    """The names the disk keeps in `folder`, in its own spelling."""
    names: list[str] = page.evaluate(NAMES, folder)
    return names


def open_case_folding(page: Page) -> None:
    page.evaluate(CASE_FOLDING)
    page.evaluate("() => window.agentlite.folder.openPrivate('project')")


def zip_of(files: Mapping[str, str | bytes]) -> str:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return base64.b64encode(buffer.getvalue()).decode()


def problems(page: Page) -> dict[str, str]:
    items = page.locator("[data-testid=folder-problem]")
    return {item.get_attribute("data-path") or "": item.inner_text() for item in items.all()}


def test_no_spelling_of_git_reaches_the_disks_git_folder(app: Page) -> None:
    disk(app, "write", "/.git/HEAD", "ref: refs/heads/main\n")
    disk(app, "mkdir", "/.git/hooks")
    disk(app, "write", "/kept.txt", "kept\n")
    open_case_folding(app)
    wait_file(app, "/kept.txt", "kept\n")
    hooks = {".GIT/hooks/pre-commit": "#!/bin/sh\necho owned\n", "GIT~1/hooks/post-checkout": "x\n"}
    hooks |= {".git./hooks/pre-push": "y\n", ".Git /config": "z\n"}
    vfs(app, "importZip", zip_of(hooks))  # a zip may hold them: the workspace keeps what it was given
    assert vfs(app, "readText", "/.GIT/hooks/pre-commit") == hooks[".GIT/hooks/pre-commit"]
    vfs(app, "writeText", "/marker.txt", "after the others\n")  # syncs run in order: this one comes last
    wait_disk(app, "/marker.txt", "after the others\n")
    sync(app)
    assert on_disk(app, "/.git/hooks") == [] and on_disk(app, "/.git") == ["HEAD", "hooks"]
    assert disk(app, "read", "/.git/HEAD") == "ref: refs/heads/main\n"
    assert sorted(on_disk(app)) == [".git", "kept.txt", "marker.txt"]
    refused = app.evaluate(
        "() => window.agentlite.vfs.writeText('/.GIT/hooks/pre-commit', 'x').then(() => '', (e) => e.message)"
    )
    assert "git's own folder" in refused


def test_a_case_only_rename_keeps_the_file(app: Page) -> None:
    disk(app, "write", "/README.md", "# Read me\n")
    disk(app, "write", "/Docs/Guide.md", "guide\n")
    open_case_folding(app)
    wait_file(app, "/README.md", "# Read me\n")
    vfs(app, "rename", "/README.md", "readme.md")
    wait_for(app, lambda: on_disk(app) == ["Docs", "readme.md"], on_disk)
    vfs(app, "rename", "/Docs", "docs")
    wait_file(app, "/docs/Guide.md", "guide\n")
    for _ in range(2):
        sync(app)
    # A browser without `move` for folders leaves the disk's spelling: still one folder, one file.
    assert [name.lower() for name in on_disk(app)] == ["docs", "readme.md"]
    assert disk(app, "read", "/readme.md") == "# Read me\n" and on_disk(app, "/docs") == ["Guide.md"]
    files = [e["path"] for e in app.evaluate("() => window.agentlite.vfs.list('/')")]
    assert files == ["/docs", "/readme.md"]
    assert vfs(app, "readText", "/readme.md") == "# Read me\n"
    assert vfs(app, "readText", "/docs/Guide.md") == "guide\n"
    vfs(app, "writeText", "/docs/Guide.md", "guide, edited\n")  # written into the disk's one folder
    wait_disk(app, "/Docs/Guide.md", "guide, edited\n")
    sync(app)
    assert [e["path"] for e in app.evaluate("() => window.agentlite.vfs.list('/docs')")] == ["/docs/Guide.md"]


def test_files_the_other_side_cannot_take_are_skipped_one_by_one(app: Page) -> None:
    app.evaluate(BIG, 10 * 1024 * 1024 + 1)
    disk(app, "write", "/AGENTS\u200b.md", "looks like AGENTS.md\n")
    disk(app, "write", "/src/main.py", "print(1)\n")
    vfs(app, "writeText", "/aux.js", "a Windows device\n")
    vfs(app, "writeText", "/a:b", "a colon\n")
    vfs(app, "writeText", "/refused-here.txt", "the disk says no\n")
    vfs(app, "writeText", "/fine.txt", "fine\n")
    open_case_folding(app)
    wait_file(app, "/src/main.py", "print(1)\n")
    wait_disk(app, "/fine.txt", "fine\n")
    assert vfs(app, "readText", "/big.bin") is None
    assert vfs(app, "readText", "/AGENTS\u200b.md") is None
    found = problems(app)
    assert set(found) == {"/big.bin", "/AGENTS\u200b.md", "/aux.js", "/a:b", "/refused-here.txt"}, found
    assert "over the 10.0 MB limit" in found["/big.bin"]
    assert "U+200B" in found["/AGENTS\u200b.md"]
    assert "AUX is a Windows device name" in found["/aux.js"]
    assert "NotAllowedError" in found["/refused-here.txt"]
    expect(app.locator("[data-testid=folder-skipped]")).to_have_text("not synced: 5 files skipped")

    disk(app, "write", "/later.txt", "still syncing\n")  # the rest goes on
    sync(app)
    assert vfs(app, "readText", "/later.txt") == "still syncing\n"


def test_an_nfd_name_on_disk_stays_one_file(app: Page) -> None:
    nfd, nfc = "cafe\u0301.txt", "caf\u00e9.txt"
    disk(app, "write", f"/{nfd}", "on disk\n")
    open_case_folding(app)
    wait_file(app, f"/{nfc}", "on disk\n")
    for _ in range(2):
        sync(app)
    assert on_disk(app) == [nfd]
    vfs(app, "writeText", f"/{nfc}", "edited in the app\n")
    wait_for(app, lambda: disk(app, "read", f"/{nfd}") == "edited in the app\n", on_disk)
    sync(app)
    assert on_disk(app) == [nfd]
    assert [e["path"] for e in app.evaluate("() => window.agentlite.vfs.list('/')")] == [f"/{nfc}"]
    assert [v["author"] for v in vfs(app, "history", f"/{nfc}")] == ["disk", "user"]


def wait_for(page: Page, done: Any, show: Any) -> None:
    for _ in range(300):
        if done():
            return
        page.wait_for_timeout(100)
    assert done(), show(page)
