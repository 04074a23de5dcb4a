"""A local folder into the workspace: through the folder input (`folder-input`) its files land under `/`
as ONE recorded change, without `.git/`, `node_modules/` and what its `.gitignore` files exclude; the page
says what it skipped and imports that too when asked. Files dropped on the tree land in the folder they
are dropped on. A folder of many files goes in batches, with progress."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.test_demo_scenarios import vfs, wait_file

WAIT_MS = 120_000
PROJECT = {
    "README.md": "# Project\n",
    "src/main.py": "print('hello')\n",
    "src/data.bin": "\x00\x01\x02",
    ".gitignore": "build/\n*.log\n",
    "build/out.js": "compiled\n",
    "debug.log": "noise\n",
    "docs/.gitignore": "secret.txt\n",
    "docs/secret.txt": "hidden\n",
    "docs/guide.md": "read me\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/objects/ab/cdef": "blob\n",
    "node_modules/left-pad/index.js": "module.exports = 1;\n",
}
KEPT = ["/.gitignore", "/README.md", "/docs/.gitignore", "/docs/guide.md", "/src/data.bin", "/src/main.py"]
SKIPPED = ["/.git/HEAD", "/.git/objects/ab/cdef", "/build/out.js", "/debug.log", "/docs/secret.txt"]
SKIPPED += ["/node_modules/left-pad/index.js"]
RECORD_STATUS = """
window.__statuses = [];
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) window.__statuses.push(node.textContent);
  }
}).observe(document.querySelector("#files-message"), { childList: true });
"""


def make_folder(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("latin-1"))
    return root


def import_folder(page: Page, folder: Path) -> None:
    page.locator("[data-testid=folder-input]").set_input_files(str(folder))


def turns_of(page: Page, paths: list[str]) -> set[str]:
    return {v["turn"] for path in paths for v in vfs(page, "history", path)}


def test_a_folder_lands_under_the_root_as_one_change_without_what_git_ignores(
    app: Page, tmp_path: Path
) -> None:
    vfs(app, "writeText", "/mine.txt", "already here\n")
    import_folder(app, make_folder(tmp_path / "project", PROJECT))
    status = app.locator("#files-message")
    expect(status).to_have_text("Imported 6 files from project as one change.", timeout=WAIT_MS)
    for path in KEPT:
        wait_file(app, path, PROJECT[path[1:]])
    for path in SKIPPED:
        assert vfs(app, "readText", path) is None, path
    assert vfs(app, "readText", "/mine.txt") == "already here\n"
    assert len(turns_of(app, KEPT)) == 1
    assert {v["author"] for path in KEPT for v in vfs(app, "history", path)} == {"user"}
    expect(app.locator("[data-testid=file-item][data-path='/src/main.py']")).to_have_count(1)

    note = app.locator("[data-testid=import-skipped]")
    expect(note).to_be_visible()
    expect(note).to_have_attribute("data-count", "6")
    expect(note).to_contain_text("2 in .git/")
    expect(note).to_contain_text("1 in node_modules/")
    expect(note).to_contain_text("3 left out by .gitignore")
    note.locator("button").click()
    expect(status).to_have_text("Imported 6 files from the skipped files as one change.", timeout=WAIT_MS)
    for path in SKIPPED:
        wait_file(app, path, PROJECT[path[1:]])
    assert len(turns_of(app, SKIPPED)) == 1 and turns_of(app, SKIPPED) != turns_of(app, KEPT)
    expect(note).to_be_hidden()
    assert vfs(app, "check") == []


def test_many_files_go_in_batches_with_progress(app: Page, tmp_path: Path) -> None:
    app.evaluate(RECORD_STATUS)
    files = {f"pkg{i // 100}/file{i}.txt": f"line {i}\n" * 50 for i in range(1_200)}
    import_folder(app, make_folder(tmp_path / "many", files))
    expect(app.locator("#files-message")).to_have_text(
        "Imported 1,200 files from many as one change.", timeout=WAIT_MS
    )
    statuses = app.evaluate("() => window.__statuses")
    midway = [s for s in statuses if s.startswith("Importing… 500 of 1,200 files")]
    assert midway, statuses
    wait_file(app, "/pkg11/file1199.txt", "line 1199\n" * 50)
    assert len(turns_of(app, ["/pkg0/file0.txt", "/pkg11/file1199.txt", "/pkg5/file555.txt"])) == 1


def test_files_dropped_on_a_folder_land_in_it(app: Page) -> None:
    vfs(app, "writeText", "/lib/keep.txt", "kept\n")
    target = app.locator("[data-testid=file-item][data-path='/lib']")
    expect(target).to_have_count(1, timeout=WAIT_MS)
    app.evaluate(
        """() => {
          const transfer = new DataTransfer();
          transfer.items.add(new File(["dropped\\n"], "dropped.txt"));
          transfer.items.add(new File(["x"], "trace.log"));
          const item = document.querySelector("[data-testid=file-item][data-path='/lib']");
          const options = { dataTransfer: transfer, bubbles: true, cancelable: true };
          item.dispatchEvent(new DragEvent("dragover", options));
          item.dispatchEvent(new DragEvent("drop", options));
        }"""
    )
    wait_file(app, "/lib/dropped.txt", "dropped\n")
    wait_file(app, "/lib/trace.log", "x")  # no .gitignore here: nothing is skipped
    assert vfs(app, "readText", "/lib/keep.txt") == "kept\n"


# A drop of one folder as the browser hands it over: entries of the File and Directory Entries API. A
# script cannot make a real DataTransfer holding a folder, so the drop event carries a stand-in of the
# same shape (types, files, items with webkitGetAsEntry).
FAKE_FOLDER_DROP = """(tree) => {
  const file = (name, text) => ({ isDirectory: false, name, file: (ok) => ok(new File([text], name)) });
  const folder = (name, children) => {
    let given = false;
    const reader = { readEntries: (ok) => { ok(given ? [] : children); given = true; } };
    return { isDirectory: true, name, createReader: () => reader };
  };
  const top = folder("site", [
    file("index.html", "<h1>hi</h1>"),
    file(".gitignore", "dist/\\n"),
    folder("css", [file("main.css", "body {}")]),
    folder("empty", []),
    folder("dist", [file("bundle.js", "built")]),
    folder(".git", [file("config", "[core]")]),
  ]);
  const item = { kind: "file", webkitGetAsEntry: () => top, getAsFile: () => null };
  const transfer = { types: ["Files"], files: [{ name: "site" }], items: [item], dropEffect: "none" };
  const target = document.querySelector(tree);
  for (const type of ["dragover", "drop"]) {
    const event = new Event(type, { bubbles: true, cancelable: true });
    Object.defineProperty(event, "dataTransfer", { value: transfer });
    target.dispatchEvent(event);
  }
}"""


def test_a_folder_dropped_on_the_tree_keeps_its_empty_folders_and_skips_the_rest(app: Page) -> None:
    app.evaluate(FAKE_FOLDER_DROP, "[data-testid=file-tree]")
    status = app.locator("#files-message")
    expect(status).to_have_text("Imported 3 files from site as one change.", timeout=WAIT_MS)
    listing = {e["path"]: e["kind"] for e in app.evaluate("() => window.agentlite.vfs.list('/')")}
    assert listing == {"/.gitignore": "file", "/css": "dir", "/empty": "dir", "/index.html": "file"}
    assert vfs(app, "readText", "/css/main.css") == "body {}"
    note = app.locator("[data-testid=import-skipped]")
    expect(note).to_contain_text("Skipped 2 files of site: 1 in .git/, 1 left out by .gitignore.")
