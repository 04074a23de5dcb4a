"""`folder_import`: a local folder of 5,000 files / 50 MB into the workspace through the app's folder input,
against the zip import of the same files (the same app, the same run; goal ≤ 2×). Each import goes into a
fresh profile, the two alternating; the time runs from the input's `change` event to the "Imported"
message (every file stored as one recorded change). `folder_import_longest_task` is the longest task the
page ran from the `change` event until 3 s after that message (the file tree showing the new files
included): how long the page could not answer the user, from the Long Tasks API; no floor.
"""

from __future__ import annotations

import random
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, say

FILES = 5_000
FILE_BYTES = 10 * 1024  # 5,000 × 10 KiB ≈ 50 MB
RUNS = 3
TIMEOUT_S = 900
SETTLE_MS = 3_000
# Times (ms since navigation) of the first input `change` and of the "Imported" message, and every
# long task in between.
PROBE = """
window.__import = { longest: 0 };
document.addEventListener("change", () => { window.__import.start ??= performance.now(); }, true);
new PerformanceObserver((list) => {
  for (const task of list.getEntries()) {
    if (window.__import.start !== undefined && task.startTime >= window.__import.start) {
      window.__import.longest = Math.max(window.__import.longest, task.duration);
    }
  }
}).observe({ type: "longtask", buffered: false });
new MutationObserver(() => {
  const status = document.querySelector("#files-message");
  if (status && status.textContent.startsWith("Imported") && window.__import.end === undefined) {
    window.__import.end = performance.now();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def make_inputs(root: Path) -> tuple[Path, Path]:
    """The folder (100 subfolders of source-like text) and a zip of the same files (deflated, as made)."""
    words = [f"name{i}" for i in range(400)] + ["def", "return", "class", "(", ")", ":", "=", "+", "\n"]
    chooser = random.Random(21)
    folder = root / "project"
    archive = root / "project.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for index in range(FILES):
            text = " ".join(chooser.choice(words) for _ in range(FILE_BYTES // 5)).encode()[:FILE_BYTES]
            name = f"pkg{index // 50}/module{index}.py"
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text)
            zipped.writestr(name, text)
    return folder, archive


def timed_import(browser: Any, origin: str, selector: str, source: Path) -> tuple[float, float]:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(f"{origin}/index.html")
    page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
    page.locator(selector).set_input_files(str(source))
    wait_for_value(page, "() => window.__import.end ?? null", TIMEOUT_S)
    page.wait_for_timeout(SETTLE_MS)  # the file tree shows the new files meanwhile
    probe = page.evaluate("() => window.__import")
    context.close()
    return probe["end"] - probe["start"], probe["longest"]


def folder_import() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    folder_ms: list[float] = []
    zip_ms: list[float] = []
    longest: list[float] = []
    with tempfile.TemporaryDirectory() as scratch, StaticServer(DIST) as server, sync_playwright() as pw:
        folder, archive = make_inputs(Path(scratch))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for run in range(RUNS):
            took, task = timed_import(browser, server.origin, "[data-testid=folder-input]", folder)
            folder_ms.append(took)
            longest.append(task)
            zip_ms.append(timed_import(browser, server.origin, "#import-file", archive)[0])
            say(f"  run {run + 1}: folder {took:.0f} ms (longest task {task:.0f}), zip {zip_ms[-1]:.0f} ms")
        browser.close()
    goal = "≤ 2× zip import"
    return [
        Figure("folder_import", median(folder_ms), "ms", median(zip_ms), RUNS, goal),
        Figure("folder_import_longest_task", median(longest), "ms", None, RUNS, "page answers meanwhile"),
    ]
