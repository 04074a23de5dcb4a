"""chunk arrives → text in the DOM: the app (worker, Python decoders, postMessage, render) against a
bare JS reader that appends the same stream to the DOM. Both read the same scripted endpoint; each
chunk carries a marker, and latency = the time the marker appears in the DOM − the time the server
wrote the chunk (one machine, one clock).

Two paces: 80 chunks 40 ms apart (`chunk_to_dom_p50`/`_p99`), and a fast provider's 2,000 tokens/s
(`chunk_to_dom_fast_*`: 400 chunks of 6 o200k tokens, 3 ms apart), where rendering must keep up with
a chunk every few ms. At that pace the page's own share is reported apart (`chunk_to_dom_fast_render_*`):
from the agent worker's message carrying the marker reaching the page to the marker in the DOM, so a
slow chunk can be told apart as the page's (rendering) or the worker's and the machine's."""

from __future__ import annotations

import json
import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM
from buildsys.bench.bench_figure import Figure
from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks

CHUNKS = 80
DELAY = 0.04
FAST_CHUNKS = 400
FAST_DELAY = 0.003  # each chunk is 6 o200k tokens: 2,000 tokens/s
OBSERVER = """(selector) => {
  window.__seen = {};
  const re = /§(\\d+)§/g;
  new MutationObserver(() => {
    const now = performance.timeOrigin + performance.now();
    const el = document.querySelector(selector);
    if (!el) return;
    for (const m of el.textContent.matchAll(re)) if (!(m[1] in window.__seen)) window.__seen[m[1]] = now;
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
# The app's page: the time each marker's event message from the agent worker is dispatched to the page.
ARRIVAL = """(() => {
  const Native = window.Worker;
  window.__arrived = {};
  window.Worker = function Worker(...args) {
    const worker = new Native(...args);
    worker.addEventListener("message", (event) => {
      const now = performance.timeOrigin + performance.now();
      const text = event.data?.event?.text;
      if (typeof text !== "string") return;
      for (const m of text.matchAll(/§(\\d+)§/g)) window.__arrived[m[1]] ??= now;
    });
    return worker;
  };
})();"""
FLOOR_PAGE = """<!doctype html><meta charset="utf-8"><body><div id="out"></div><script type="module">
window.start = async (url) => {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify({model: "bench", stream: true, messages: []})});
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const out = document.getElementById("out");
  let buffer = "";
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let cut;
    while ((cut = buffer.indexOf("\\n\\n")) >= 0) {
      const line = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const delta = JSON.parse(line.slice(6)).choices[0].delta;
      if (delta.content) out.append(delta.content);
    }
  }
  window.finished = true;
};
</script>"""


def _pieces(count: int) -> list[str]:
    return [f"§{i}§ lorem ipsum " for i in range(count)]


def _content(chunk: bytes) -> str:
    if not chunk.startswith(b"data: {"):
        return ""
    return str(json.loads(chunk[6:])["choices"][0]["delta"].get("content") or "")


def _latencies(server: ModelServer, seen: dict[str, float], since: int) -> list[float]:
    """Milliseconds from the server writing each marker's chunk to the marker showing in the DOM."""
    sent: dict[str, float] = {}
    for chunk, at in server.sent[since:]:
        for marker in re.findall(r"§(\d+)§", _content(chunk)):
            sent.setdefault(marker, at * 1000)
    return [seen[k] - sent[k] for k in sent if k in seen]


def _measure_app(context: Any, origin: str, server: ModelServer) -> tuple[list[float], list[float]]:
    """Latencies from the server, and from the worker's message reaching the page, to the DOM."""
    page = context.new_page()
    page.add_init_script(ARRIVAL)
    page.goto(f"{origin}/index.html?base_url={server.base_url}&model=bench&dialect=native")
    page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
    page.evaluate(OBSERVER, "[data-testid=message][data-role=assistant] .message-body")
    since = len(server.sent)
    page.fill("[data-testid=chat-input]", "stream")
    page.press("[data-testid=chat-input]", "Enter")
    page.wait_for_selector("[data-testid=message][data-role=assistant][data-state=done]", timeout=120_000)
    seen, arrived = page.evaluate("window.__seen"), page.evaluate("window.__arrived")
    latencies = _latencies(server, seen, since)
    page.close()
    return latencies, [seen[k] - arrived[k] for k in seen if k in arrived]


def _measure_floor(context: Any, server: ModelServer) -> list[float]:
    """The reader page comes from a real local server: Chromium lets only a page that was itself
    loaded from the loopback address space fetch from the loopback model server."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "reader.html").write_text(FLOOR_PAGE)
        with StaticServer(Path(folder)) as reader:
            return _read_floor(context, f"{reader.origin}/reader.html", server)


def _read_floor(context: Any, url: str, server: ModelServer) -> list[float]:
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("typeof window.start === 'function'")
    page.evaluate(OBSERVER, "#out")
    since = len(server.sent)
    page.evaluate("(url) => { window.start(url); }", f"{server.base_url}/chat/completions")
    page.wait_for_function("window.finished === true", timeout=120_000)
    latencies = _latencies(server, page.evaluate("window.__seen"), since)
    page.close()
    return latencies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _measure(chunks: int, delay: float) -> tuple[list[float], list[float], list[float]]:
    """Latencies of the app, of the bare reader, and of the app's page alone for one scripted reply
    at one pace."""
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as static, ModelServer() as server, sync_playwright() as playwright:
        server.script(Scripted(chunks=text_chunks(*_pieces(chunks)), delay=delay))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context()
        floor = _measure_floor(context, server)
        app, page_part = _measure_app(context, static.origin, server)
        browser.close()
    if not app or not floor or not page_part:
        raise RuntimeError("chunk_to_dom: no markers observed")
    return app, floor, page_part


def _figures(prefix: str, app: list[float], floor: list[float], goals: tuple[str, str]) -> list[Figure]:
    runs = len(app)
    p50 = Figure(f"{prefix}_p50", statistics.median(app), "ms", statistics.median(floor), runs, goals[0])
    p99 = Figure(f"{prefix}_p99", percentile(app, 0.99), "ms", percentile(floor, 0.99), runs, goals[1])
    return [p50, p99]


def chunk_to_dom() -> list[Figure]:
    app, floor, _ = _measure(CHUNKS, DELAY)
    figures = _figures("chunk_to_dom", app, floor, ("p50 ≤ 16 ms", "p99 ≤ 50 ms"))
    fast, fast_floor, page_part = _measure(FAST_CHUNKS, FAST_DELAY)
    figures += _figures("chunk_to_dom_fast", fast, fast_floor, ("—", "p99 ≤ 16 ms at 2,000 tokens/s"))
    render = [
        Figure("chunk_to_dom_fast_render_p50", statistics.median(page_part), "ms", None, len(page_part), "—"),
        Figure("chunk_to_dom_fast_render_p99", percentile(page_part, 0.99), "ms", None, len(page_part), "—"),
    ]
    return figures + render
