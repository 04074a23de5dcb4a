"""The Preview panel in an engine of the suite (docs/preview.md): a small page with modules across folders,
CSS, fetch() of a workspace JSON file and a console line; a TSX page on the shipped React; a page whose
loops never end, stopped by the loop guard while the app keeps answering; then the next preview. The
previewed document is read through the driver (the frame has an opaque origin)."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.e2e.test_preview_screenshot import PIXELS
from tests.engines.probe import Probe

FRAME = "[data-testid=preview-frame]"
WAIT_S = 60.0
STOPPED = "RangeError: preview stopped a loop that ran for more than 1000 ms at "
EVAL_OFF = "Blocked: eval/new Function is off in this browser's preview (it could freeze the app)"

# A page whose loops never end, one of each kind the guard stops (also tests/e2e/test_preview_guard.py):
# `while` at load (js/loop.js:4), `do…while` in a timer (:2), a chain of awaits in a timer (:3), and
# `for (;;)` in the click handler of an inline script (line 6 of the page).
LOOP_HTML = (
    "<!doctype html><title>Loops</title>\n"
    '<button id="spin">spin</button><p id="after"></p>\n'
    '<script type="module" src="js/loop.js"></script>\n'
    "<script>\n"
    'document.getElementById("spin").onclick = () => {\n'
    "  for (;;) {}\n"
    "};\n"
    "</script>\n"
)
LOOP_JS = (
    'console.log("looping");\n'
    "setTimeout(() => { do {} while (true); }, 0);\n"
    "setTimeout(async () => { for (;;) await 0; }, 0);\n"
    "while (true) {}\n"
)

# A page of known colours for preview_page's screenshot: a red box at (20, 30) on a blue page.
SHOT_PAGE = {
    "/shot.html": (
        '<!doctype html><title>Shot</title><link rel="stylesheet" href="shot.css"><div id="box"></div>'
    ),
    "/shot.css": (
        "body { background: rgb(10, 120, 200); margin: 0; }\n"
        "#box { position: absolute; left: 20px; top: 30px; width: 100px; height: 50px;"
        " background: rgb(200, 30, 40); }\n"
    ),
}
# The screenshot on the preview_page card, decoded in the app: its size, a box pixel and a page pixel.
SHOWN_SHOT = "[data-testid=tool-card][data-tool=preview_page] [data-testid=tool-images] img"
CARD_PIXELS = f"({PIXELS})([{json.dumps(SHOWN_SHOT)}, [[70, 55], [5, 5]]])"

# WebRTC in the preview (docs/preview.md, "No network"): the page's own window, a srcdoc frame's script and
# an about:blank frame it reaches into; one console line says what each found.
RTC_HTML = (
    "<!doctype html><title>RTC</title><body><script>\n"
    "const seen = [];\n"
    "addEventListener('message', (event) => seen.push(String(event.data)));\n"
    "const framed = document.createElement('iframe');\n"
    'framed.srcdoc = \'<script>parent.postMessage("frame " + typeof RTCPeerConnection, "*")<\'\n'
    "  + '/script>';\n"
    "document.body.append(framed);\n"
    "const blank = document.createElement('iframe');\n"
    "document.body.append(blank);\n"
    "const attempt = (run) => { try { return String(run()); } catch (err) { return err.name; } };\n"
    "const made = attempt(() => new RTCPeerConnection() && 'made');\n"
    "const reached = attempt(() => typeof blank.contentWindow.RTCPeerConnection);\n"
    "const madeThere = attempt(() => new blank.contentWindow.RTCPeerConnection() && 'made');\n"
    "setTimeout(() => console.log(`rtc: ${typeof RTCPeerConnection} ${typeof webkitRTCPeerConnection}`\n"
    "  + ` new:${made} blank:${reached} blank-new:${madeThere} trusted-types:${typeof trustedTypes}`\n"
    "  + ` frames:[${seen.join(',')}]`), 1500);\n"
    "</script>\n"
)

PAGES = {
    "/index.html": (
        '<!doctype html><html><head><title>Engine page</title><link rel="stylesheet" href="css/site.css">'
        '</head><body><h1>Hello engines</h1><p id="sum"></p><p id="data"></p>'
        '<script type="module" src="js/main.js"></script></body></html>'
    ),
    "/css/site.css": "h1 { color: rgb(0, 128, 0); }\n",
    "/js/main.js": (
        'import { add } from "../lib/add.js";\n'
        'document.getElementById("sum").textContent = "sum " + add(20, 22);\n'
        'const data = await (await fetch("data/items.json")).json();\n'
        'document.getElementById("data").textContent = data.items.join(",");\n'
        'console.log("engine page ready");\n'
    ),
    "/lib/add.js": "export const add = (a, b) => a + b;\n",
    "/data/items.json": '{"items": ["x", "y"]}',
    "/react.html": (
        '<!doctype html><title>React page</title><div id="root"></div>'
        '<script type="module" src="src/main.tsx"></script>'
    ),
    "/src/main.tsx": (
        'import { useState } from "react";\n'
        'import { createRoot } from "react-dom/client";\n'
        "function App({ start }: { start: number }) {\n"
        "  const [n, setN] = useState<number>(start);\n"
        '  return <button id="inc" onClick={() => setN(n + 1)}>count {n}</button>;\n'
        "}\n"
        'createRoot(document.getElementById("root")!).render(<App start={0} />);\n'
    ),
    "/loop.html": LOOP_HTML,
    "/rtc.html": RTC_HTML,
    "/js/loop.js": LOOP_JS,
    # The guard's cost: the same tight loop guarded (in the page) and not (a blob: module the page makes
    # at run time is not guarded), the best of 5 rounds, one task each (a task may hold the thread 1 s).
    "/cost.html": (
        "<!doctype html><title>Cost</title><script type=module>\n"
        "const N = 1e7, best = { guarded: Infinity, bare: Infinity };\n"
        "function timed(run) { const t = performance.now(); run(); return performance.now() - t; }\n"
        "const guarded = () => { let s = 0; for (let i = 0; i < N; i++) s += i; return s; };\n"
        'const source = "export default (N) => {"\n'
        '  + " let s = 0; for (let i = 0; i < N; i++) s += i; return s; };";\n'
        'const made = await import(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));\n'
        "const bare = () => made.default(N);\n"
        "function round(left) {\n"
        "  best.guarded = Math.min(best.guarded, timed(guarded));\n"
        "  best.bare = Math.min(best.bare, timed(bare));\n"
        "  if (left > 1) setTimeout(() => round(left - 1), 50);\n"
        "  else console.log(`cost: ${N} turns, guarded ${best.guarded} ms, bare ${best.bare} ms`);\n"
        "}\n"
        "round(5);\n"
        "</script>\n"
    ),
    # Whether the frame shares the app's thread: a 2 s busy loop the guard does not see (a blob: module).
    "/busy.html": (
        "<!doctype html><title>Busy</title><script type=module>\n"
        'const source = "const t = performance.now(); while (performance.now() - t < 2000) {}";\n'
        'await import(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));\n'
        'console.log("busy done");\n'
        "</script>\n"
    ),
    # Code the guard never saw: a handler attribute's loop runs guarded, eval is off.
    "/holes.html": (
        "<!doctype html><title>Holes</title>\n"
        '<img src="x.png" onerror="while (1) {}">\n'
        "<button id=plus onclick=\"count++; this.textContent = 'count ' + count\">count 0</button>\n"
        "<script>\n"
        "var count = 0;\n"
        'try { eval("while (1) {}"); } catch (err) { console.log("eval: " + err.name); }\n'
        "</script>\n"
    ),
}

# The app's own thread: the longest gap between two ticks of a 20 ms timer (how long it was frozen).
TICKER = """(() => {
  if (window.previewTicker) clearInterval(window.previewTicker);
  window.frozenMs = 0;
  let last = performance.now();
  window.previewTicker = setInterval(() => {
    const now = performance.now();
    window.frozenMs = Math.max(window.frozenMs, now - last - 20);
    last = now;
  }, 20);
  return true;
})()"""


def open_preview(probe: Probe) -> None:
    """The app ready, PAGES in its workspace, the Preview panel open."""
    if probe.value("document.querySelector('[data-testid=app]')?.dataset.state") != "ready":
        probe.open("index.html")  # run alone; in order the tests before left the app ready
        probe.wait_ready()
    write(probe, PAGES)
    probe.value(
        "(() => { const panel = document.querySelector('[data-testid=preview-panel]');"
        " if (panel.hidden) document.querySelector('[data-testid=preview-open]').click(); return true; })()"
    )


def write(probe: Probe, files: dict[str, str]) -> None:
    probe.value(
        f"(async () => {{ for (const [p, t] of Object.entries({json.dumps(files)}))"
        " await window.agentlite.vfs.writeText(p, t); return true; })()",
        60,
    )


def shown(probe: Probe, entry: str, after: int = 0) -> int:
    """Wait for the preview of `entry` to be ready after revision `after`; its revision."""
    frame = f"document.querySelector({json.dumps(FRAME)})"
    found: int = probe.wait_for(
        f"(() => {{ const f = {frame}; return f && f.dataset.entry === {json.dumps(entry)}"
        f" && f.dataset.state === 'ready' && Number(f.dataset.revision) > {after}"
        " && Number(f.dataset.revision); })()",
        WAIT_S,
        f"the preview of {entry}",
    )
    return found


def choose(probe: Probe, entry: str) -> None:
    probe.value(
        "(() => { const s = document.querySelector('[data-testid=preview-entry]');"
        f" s.value = {json.dumps(entry)}; s.dispatchEvent(new Event('change')); return true; }})()"
    )


def in_frame(probe: Probe, expression: str, what: str) -> Any:
    """Poll `expression` in the previewed document until it is truthy."""
    deadline = time.monotonic() + WAIT_S
    last: Any = None
    while time.monotonic() < deadline:
        last = probe.engine.frame_eval(FRAME, expression, 20.0)
        if last:
            return last
        time.sleep(0.25)
    raise AssertionError(f"{probe.engine.name}: {what} not shown (last: {last!r})")


def log_line(probe: Probe, needle: str) -> str:
    found: str = probe.wait_for(
        "[...document.querySelectorAll('[data-testid=preview-log]')]"
        f".map((e) => e.textContent).find((t) => t.includes({json.dumps(needle)})) || null",
        WAIT_S,
        f"the console line {needle!r}",
    )
    return found


def error_lines(probe: Probe) -> list[str]:
    lines: list[str] = probe.value(
        "[...document.querySelectorAll('[data-testid=preview-log][data-level=error]')]"
        ".map((e) => e.textContent)"
    )
    return lines
