"""`eval_roundtrip`: `1+1` through browser_js_eval's sandbox (docs/execution.md), warm, p50 in ms (of
100 batches of 10 calls each, since the page's clock ticks in 0.1 ms steps).

Measured in Chromium on a harness page at the app's origin that drives the SandboxHost directly: the page
posts the run to the frame's Worker and gets the checked result back. The floor, in the same page: a bare
same-origin frame on the page's thread that evals what it is sent over a MessageChannel and answers."""

from __future__ import annotations

from typing import Any

from buildsys.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench_figure import Figure
from buildsys.common import DIST
from buildsys.serve import StaticServer

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
function bareFrame() {
  const frame = document.createElement("iframe");
  frame.srcdoc = "<script>onmessage = (e) => e.ports[0].postMessage(String((0, eval)(e.data)));<\\/script>";
  document.body.append(frame);
  return new Promise((resolve) => frame.addEventListener("load", () => resolve(frame)));
}
window.measure = async (runs, warm) => {
  const host = new SandboxHost();
  const sandbox = await timed(async () => {
    const result = await host.run("js", { code: "1+1" });
    if (result.value !== "2") throw new Error(`1+1 gave ${result.value}`);
  }, runs, warm);
  const frame = await bareFrame();
  const floor = await timed(() => new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    frame.contentWindow.postMessage("1+1", "*", [channel.port2]);
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
    goal = "≤ 1.5× today's in-frame eval (docs/execution.md)"
    return [Figure("eval_roundtrip", measured["sandbox"], "ms", measured["floor"], RUNS, goal)]
