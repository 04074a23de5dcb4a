"""A small folder imported through the app's folder input (`folder-input`, docs/folders.md) in an engine
of the suite: by the driver when it can hand a folder to the input, else by the input's own change
handler fed File objects that carry `webkitRelativePath`, as the browser's folder picker gives them.

Neither driver can today: Firefox's WebDriver BiDi `input.setFiles` refuses a directory
(NS_ERROR_FILE_IS_DIRECTORY), and WebKitWebDriver takes one but gives the input a single empty file named
after the folder, which a guard stops before the app sees it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.engines.drivers import ScriptError
from tests.engines.probe import Probe

INPUT = "[data-testid=folder-input]"
FOLDER = "project"
FILES = {
    "README.md": "# Project\n",
    "src/main.py": "print('hello')\n",
    "src/lib/util.js": "export const one = 1;\n",
    ".gitignore": "*.log\n",
    "debug.log": "noise\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "node_modules/pad/index.js": "module.exports = 1;\n",
}
KEPT = ["/.gitignore", "/README.md", "/src/lib/util.js", "/src/main.py"]
SKIPPED = ["/.git/HEAD", "/debug.log", "/node_modules/pad/index.js"]
DONE = f"Imported {len(KEPT)} files from {FOLDER} as one change."

# Stops a driver's choice that is not a folder (files without a relative path) before the app's listener.
GUARD = """(() => {
  const input = document.querySelector(%s);
  window.driverChoice = null;
  input.addEventListener("change", (event) => {
    const paths = Array.from(input.files, (file) => file.webkitRelativePath || `(no path) ${file.name}`);
    const folder = paths.length > 0 && paths.every((path) => path.includes("/"));
    window.driverChoice = { folder, paths };
    if (!folder) { event.stopImmediatePropagation(); input.value = ""; }
  }, { capture: true, once: true });
  return true;
})()"""
CHOICE_S = 10.0

# The input's own `files` shadowed for one change event: its listener reads them while the event runs.
FEED = """(() => {
  const input = document.querySelector(%s);
  const files = Object.entries(%s).map(([path, text]) => {
    const file = new File([text], path.split("/").at(-1));
    Object.defineProperty(file, "webkitRelativePath", { value: path });
    return file;
  });
  Object.defineProperty(input, "files", { configurable: true, get: () => files });
  try { input.dispatchEvent(new Event("change", { bubbles: true })); } finally { delete input.files; }
  return true;
})()"""


def make_folder(root: Path) -> Path:
    folder = root / FOLDER
    for name, text in FILES.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return folder


def import_folder(probe: Probe, tmp_path: Path) -> str:
    """Import the folder; which path carried it: "driver" (the real chooser) or "page" (File objects)."""
    probe.value(GUARD % json.dumps(INPUT))
    try:
        probe.engine.upload(INPUT, make_folder(tmp_path))
        choice = probe.wait_for("window.driverChoice", CHOICE_S, "the driver's choice")
        if choice["folder"]:
            return "driver"
        print(f"{probe.engine.name}: the driver gave the input no folder but {choice['paths']}")
    except ScriptError as refused:
        print(f"{probe.engine.name}: the driver refused the folder ({refused})")
    relative = {f"{FOLDER}/{name}": text for name, text in FILES.items()}
    probe.value(FEED % (json.dumps(INPUT), json.dumps(relative)))
    return "page"


def imported(probe: Probe) -> str:
    """The files panel's status once the import has said it is done."""
    status = "document.querySelector('#files-message')?.textContent"
    found: str = probe.wait_for(f"({status} || '').startsWith('Imported') && {status}", 120, "the import")
    return found
