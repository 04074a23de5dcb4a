"""The preview benchmarks (docs/preview.md): a workspace write -> the change visible in the Preview panel.

- preview_refresh: a 10-file vanilla page (classic and module scripts, CSS, JSON); floor: a bare iframe
  loading the same page from a static server, in the same run (goal p50 <= 150 ms);
- preview_refresh_tsx: a 5-file TSX React page (goal p50 <= 400 ms; the floor needs a build step a
  static server does not have, so there is none);
- preview_screenshot: preview_page's picture of the 10-file page, from asking the frame to the PNG in
  base64 on the app's side (the screenshot module handed over and imported in a fresh frame each time,
  as each preview_page reloads the page), in an 800x600 frame (goal p50 <= 500 ms, no floor).

"Visible" is the page's own record: its script (or React effect) writes a marker and notes Date.now()
on the next animation frame; the write's start is Date.now() in the app just before `writeText`.
"""

from __future__ import annotations

import functools
import tempfile
import time
from pathlib import Path
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM, ready_app
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST

RUNS = 15
SHOWN = "requestAnimationFrame(() => { window.shownAt = Date.now(); });"
VANILLA = {
    "/index.html": (
        '<!doctype html><html><head><title>bench</title><link rel="stylesheet" href="css/a.css">'
        '<link rel="stylesheet" href="css/b.css"><script src="js/classic.js"></script>'
        '<script type="module" src="js/main.js"></script></head>'
        '<body><h1 id="v">-</h1><ul id="list"></ul></body></html>'
    ),
    "/css/a.css": "h1 { color: #333; }\n",
    "/css/b.css": "ul { list-style: square; }\n",
    "/js/classic.js": "window.classic = true;\n",
    "/js/main.js": (
        'import { marker } from "./marker.js";\nimport { items } from "../lib/items.js";\n'
        'import { render } from "../lib/render.js";\n'
        'document.getElementById("v").textContent = marker;\nrender(items);\n' + SHOWN + "\n"
    ),
    "/js/marker.js": 'export const marker = "run-0";\n',
    "/lib/items.js": 'import data from "./data.js";\nexport const items = data.map((x) => x * 2);\n',
    "/lib/data.js": "export default [1, 2, 3, 4, 5];\n",
    "/lib/render.js": (
        "export function render(items) {\n"
        '  const list = document.getElementById("list");\n'
        "  for (const i of items) {\n"
        '    list.append(Object.assign(document.createElement("li"), { textContent: i }));\n'
        "  }\n"
        "}\n"
    ),
    "/data/extra.json": '{"a": 1}',
}
TSX = {
    "/index.html": (
        '<!doctype html><html><head><title>bench tsx</title></head><body><div id="root"></div>'
        '<script type="module" src="/src/main.tsx"></script></body></html>'
    ),
    "/src/main.tsx": (
        'import { createRoot } from "react-dom/client";\nimport App from "./App.tsx";\n'
        'createRoot(document.getElementById("root")!).render(<App />);\n'
    ),
    "/src/App.tsx": (
        'import { useEffect } from "react";\nimport { Title } from "./Title.tsx";\n'
        'import { marker } from "./marker.ts";\n'
        "export default function App() {\n  useEffect(() => { " + SHOWN + " });\n"
        "  return <main><Title text={marker} /></main>;\n}\n"
    ),
    "/src/Title.tsx": (
        'export function Title({ text }: { text: string }) {\n  return <h1 id="v">{text}</h1>;\n}\n'
    ),
    "/src/marker.ts": 'export const marker: string = "run-0";\n',
}
WRITE = """async ([path, text]) => {
  window.writeAt = Date.now();
  await window.agentlite.vfs.writeText(path, text);
}"""
REVISION = """() => Number(
  document.querySelector('[data-testid=preview-frame][data-state=ready]')?.dataset.revision || 0)"""
WRITE_ALL = """async (files) => {
  for (const [p, t] of Object.entries(files)) await window.agentlite.vfs.writeText(p, t);
}"""


def _wait(predicate: Any, timeout_s: float = 60) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise TimeoutError("the preview did not show the change")


def _shown_at(page: Any, revision: int, marker: str) -> float:
    """Date.now() at which the preview frame of a later revision drew `marker`."""
    _wait(lambda: page.evaluate(REVISION) > revision)
    frame = page.query_selector("[data-testid=preview-frame]").content_frame()

    def drawn() -> Any:
        try:
            if frame.evaluate("document.getElementById('v')?.textContent") != marker:
                return None
            return frame.evaluate("window.shownAt")
        except Exception:  # the frame was replaced by a later reload meanwhile
            return None

    return float(_wait(drawn))


def _preview_runs(page: Any, files: dict[str, str], path: str, template: str) -> list[float]:
    page.evaluate(WRITE_ALL, files)
    page.click("[data-testid=preview-open]")
    _wait(lambda: page.evaluate(REVISION) > 0)
    times = []
    for run in range(1, RUNS + 1):
        revision = page.evaluate(REVISION)
        marker = f"run-{run}"
        page.evaluate(WRITE, [path, template.replace("run-0", marker)])
        shown = _shown_at(page, revision, marker)
        times.append(shown - page.evaluate("window.writeAt"))
        time.sleep(0.2)
    return times


def _floor_runs(browser: Any, files: dict[str, str]) -> list[float]:
    """A bare iframe (no app) loading the same page from a static server after each write to disk."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in files.items():
            (root / path.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
            (root / path.lstrip("/")).write_text(text)
        with StaticServer(root) as server:
            page = browser.new_page()
            page.goto(f"{server.origin}/data/extra.json")
            times = []
            for run in range(1, RUNS + 1):
                marker = f"run-{run}"
                (root / "js/marker.js").write_text(files["/js/marker.js"].replace("run-0", marker))
                start = page.evaluate(
                    """(url) => { const f = document.createElement('iframe');
                       document.querySelector('iframe')?.remove(); document.body.append(f);
                       const t = Date.now(); f.src = url; return t; }""",
                    f"{server.origin}/index.html?{run}",
                )
                frame = _wait(lambda: page.frames[1] if len(page.frames) > 1 else None)
                shown = _wait(functools.partial(_frame_value, frame, marker))
                times.append(float(shown) - start)
            page.close()
    return times


def _frame_value(frame: Any, marker: str) -> Any:
    try:
        if frame.evaluate("document.getElementById('v')?.textContent") != marker:
            return None
        return frame.evaluate("window.shownAt")
    except Exception:
        return None


def _measure(tsx: bool) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser, page = ready_app(playwright, server.origin)
        if tsx:
            times = _preview_runs(page, TSX, "/src/marker.ts", TSX["/src/marker.ts"])
            figures = [Figure("preview_refresh_tsx", median(times), "ms", None, RUNS, "p50 ≤ 400 ms")]
        else:
            times = _preview_runs(page, VANILLA, "/js/marker.js", VANILLA["/js/marker.js"])
            floor = _floor_runs(browser, VANILLA)
            figures = [Figure("preview_refresh", median(times), "ms", median(floor), RUNS, "p50 ≤ 150 ms")]
        browser.close()
    return figures


# The preview's own machinery (dist/preview.js) on a page of the app's origin, fed the files directly:
# each run reloads the page in a fresh frame, then times one screenshot.
# PREVIEWER: the lines that make `previewer` from `files` (also buildsys/bench/bench_hands.py).
PREVIEWER = """
  const { createPreviewer } = await import(new URL("preview.js", location.href).href);
  const slot = document.createElement("div");
  slot.style.cssText = "position: fixed; left: 0; top: 0; width: 800px; height: 600px";
  document.body.append(slot);
  const items = Object.entries(files).map(([path, text]) => ({ path, sha256: path, text }));
  const call = async () => ({ files: items, kept: [] });
  const quiet = () => {};
  const baseUrl = new URL(".", location.href).href;
  const previewer = createPreviewer({ slot, call, baseUrl, onLog: quiet, onState: quiet, onNavigate: quiet });
"""
SHOTS = (
    "async ([files, runs]) => {"
    + PREVIEWER
    + """
  const times = [];
  for (let run = 0; run < runs; run++) {
    await previewer.show("/index.html");
    const started = performance.now();
    const shot = await previewer.shoot();
    if (!shot.screenshot) throw new Error(shot.screenshot_error);
    times.push(performance.now() - started);
  }
  return times;
}"""
)


def preview_screenshot() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_context(service_workers="block").new_page()
        page.goto(f"{server.origin}/build.json")  # the app's origin, without booting the app
        times = page.evaluate(SHOTS, [VANILLA, RUNS])
        browser.close()
    return [Figure("preview_screenshot", median(times), "ms", None, RUNS, "p50 ≤ 500 ms")]


def preview_refresh() -> list[Figure]:
    return _measure(tsx=False)


def preview_refresh_tsx() -> list[Figure]:
    return _measure(tsx=True)
