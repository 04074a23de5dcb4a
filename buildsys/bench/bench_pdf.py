"""The PDF benchmark (docs/pdf.md): `pdf_text`, a 100-page PDF to text through the page's `readPdf`
(the testing API's `pdf.read`, timed around `readPdf` only), against pdf.js alone on the same file in a
bare page with the app's CSP (`bare-pdf.html`: getDocument with the library's own worker, then
getTextContent of every page), both from the same dist/ and the same server, runs interleaved.

The PDF is written at bench time (buildsys/testing/pdf_sample.py): 100 pages of 40 lines, the same bytes
every run.
"""

from __future__ import annotations

import base64
from typing import Any

from buildsys.bench.bench_browser import ready_app
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from buildsys.testing.pdf_sample import sample_pdf

RUNS = 9
PAGES = 100
APP_READ = """async ([b64, pages]) => {
  const result = await window.agentlite.pdf.read(b64);
  if (!result.ok) throw new Error(result.message);
  if (result.doc.pages.length !== pages) throw new Error(`read ${result.doc.pages.length} pages`);
  return result.ms;
}"""
# pdf.js as its own documentation shows it, nothing of the app's: no limits, no checks, no joining.
BARE_READ = """async (b64) => {
  const pdfjs = await import("./pdf/pdf.js");
  pdfjs.GlobalWorkerOptions.workerSrc = new URL("pdf/pdf.worker.js", location.href).href;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const started = performance.now();
  const task = pdfjs.getDocument({ data: bytes });
  const doc = await task.promise;
  for (let n = 1; n <= doc.numPages; n++) await (await doc.getPage(n)).getTextContent();
  const ms = performance.now() - started;
  await task.destroy();
  return ms;
}"""


def pdf_text() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    b64 = base64.b64encode(sample_pdf(PAGES, lines=40)).decode()
    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser, app = ready_app(playwright, server.origin)
        bare = app.context.new_page()
        bare.goto(f"{server.origin}/bare-pdf.html")
        times, floor = _interleaved(app, bare, b64)
        browser.close()
    return [Figure("pdf_text", median(times), "ms", median(floor), RUNS, "≤ 1.3× pdf.js alone")]


def _interleaved(app: Any, bare: Any, b64: str) -> tuple[list[float], list[float]]:
    """One warm-up each (the library's first load), then RUNS timed reads on each page in turn."""
    app.evaluate(APP_READ, [b64, PAGES])
    bare.evaluate(BARE_READ, b64)
    times: list[float] = []
    floor: list[float] = []
    for _ in range(RUNS):
        times.append(float(app.evaluate(APP_READ, [b64, PAGES])))
        floor.append(float(bare.evaluate(BARE_READ, b64)))
    return times, floor
