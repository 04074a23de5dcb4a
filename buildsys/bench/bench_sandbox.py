"""`eval_roundtrip`: `1+1` through browser_js_eval's sandbox (docs/execution.md), warm, p50 in ms (of
100 batches of 10 calls each, since the page's clock ticks in 0.1 ms steps).

Measured in Chromium on a harness page at the app's origin that drives the SandboxHost directly: the page
posts the run to the frame's Worker and gets the checked result back. The floor, in the same page, crosses
the same boundaries with nothing of ours: a bare opaque-origin frame (`sandbox="allow-scripts"`) starts a
Worker from a blob and hands it a MessagePort; the page sends the code over that port, the Worker evals
it and answers. So the ratio is our layer's own cost (the runtime, the checks, the result's shape), not
the browser's frame and Worker boundary."""

from __future__ import annotations

from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench.bench_figure import Figure
from buildsys.build.serve import StaticServer
from buildsys.common import DIST

RUNS = 100  # batches of 10 calls (the page's clock is coarse); the p50 of the batches' mean per call
WARM = 20
HARNESS = "__bench_eval.html"
PAGE = """<!doctype html><meta charset="utf-8"><title>eval_roundtrip</title>
<script type="module">
import { SandboxHost } from "./sandbox-host.js";
const BATCH = 10;
const p50 = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
// The page's clock ticks in 0.1 ms steps (not cross-origin isolated): time batches, report per call.
async function timed(call, runs, warm) {
  for (let i = 0; i < warm; i++) await call();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    for (let j = 0; j < BATCH; j++) await call();
    times.push((performance.now() - start) / BATCH);
  }
  return p50(times);
}
const BARE_WORKER = "onmessage = (e) => { const port = e.ports[0];"
  + " port.onmessage = (m) => port.postMessage(String((0, eval)(m.data))); };";
const BARE_FRAME = "<script>onmessage = (e) => { const url = URL.createObjectURL(new Blob(["
  + JSON.stringify(BARE_WORKER) + "], { type: 'text/javascript' }));"
  + " new Worker(url).postMessage(null, [e.ports[0]]); };<\\/script>";
// A bare opaque frame whose Worker answers on a port: the same boundaries as the sandbox, nothing more.
async function barePort() {
  const frame = document.createElement("iframe");
  frame.sandbox = "allow-scripts";
  frame.srcdoc = BARE_FRAME;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener("load", resolve));
  const channel = new MessageChannel();
  frame.contentWindow.postMessage(null, "*", [channel.port2]);
  return channel.port1;
}
window.measure = async (runs, warm) => {
  const host = new SandboxHost();
  const sandbox = await timed(async () => {
    const result = await host.run("js", { code: "1+1" });
    if (result.value !== "2") throw new Error(`1+1 gave ${result.value}`);
  }, runs, warm);
  const port = await barePort();
  const floor = await timed(() => new Promise((resolve, reject) => {
    port.onmessage = (event) => (event.data === "2" ? resolve(event.data) : reject(new Error(event.data)));
    port.postMessage("1+1");
  }), runs, warm);
  window.measured = { sandbox, floor };
};
</script>"""


def eval_roundtrip() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        url = f"{server.origin}/{HARNESS}"
        page.route(url, lambda route: route.fulfill(content_type="text/html", body=PAGE))
        page.goto(url)
        wait_for_value(page, "() => window.measure ? true : null", 60)
        page.evaluate(f"window.measure({RUNS}, {WARM}); null")
        measured: dict[str, Any] = wait_for_value(page, "() => window.measured ?? null", 300)
        browser.close()
    goal = "≤ 1.5× a bare message through the same opaque frame and Worker (docs/execution.md)"
    return [Figure("eval_roundtrip", measured["sandbox"], "ms", measured["floor"], RUNS, goal)]
