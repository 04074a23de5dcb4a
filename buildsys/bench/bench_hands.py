"""The benchmarks of the agent's hands on the preview (docs/preview.md, "Hands on the page"), on TodoMVC's
vanilla JavaScript app (tests/fixtures/todomvc-vanillajs) with 5 todos added through the hands:

- preview_act: one click (a todo's checkbox) from the app's ask to the result back on the app's side,
  the frame's wait for the page to settle (50 ms still) included; the page-job hop to the agent worker is
  not (goal p50 <= 100 ms, no floor);
- snapshot_tokens: the snapshot of that page as the model reads it, in tokens (goal <= 1,500), beside a
  screenshot of the same page at OpenAI's high-detail image price as the floor (goal <= 0.3x).
"""

from __future__ import annotations

import math
from pathlib import Path

from buildsys.bench.bench_browser import ARGS, CHROMIUM
from buildsys.bench.bench_figure import Figure, median
from buildsys.bench.bench_preview import PREVIEWER
from buildsys.bench.bench_tokens import count_tokens
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, ROOT

RUNS = 15
TODOS = 5
TODOMVC = ROOT / "tests" / "fixtures" / "todomvc-vanillajs"

# The preview's machinery (dist/preview.js) on a page of the app's origin, fed the files directly.
DRIVE = (
    "async ([files, todos, runs]) => {"
    + PREVIEWER
    + """
  const sized = document.createElement("style"); // the frame as wide as the app's panel shows it
  sized.textContent = ".preview-frame { width: 800px; height: 600px; border: 0; }";
  document.head.append(sized);
  const hands = previewer.hands;
  const refOf = (lines, pattern) => lines.find((line) => pattern.test(line))?.match(/ref=(e\\d+)/)?.[1];
  const first = await hands.snapshot("/index.html", async () => true);
  const field = refOf(first.lines, /textbox "What needs to be done\\?"/);
  for (let n = 1; n <= todos; n++) {
    await hands.act(field, "type", `todo number ${n}`);
    await hands.act(field, "press", "Enter");
  }
  const page = await hands.snapshot("/index.html", async () => true);
  const box = refOf(page.lines, /^ {4}- checkbox/);
  const times = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const done = await hands.act(box, "click", "");
    if (done.error) throw new Error(done.error);
    times.push(performance.now() - started);
  }
  const shot = await previewer.shoot();
  if (!shot.screenshot) throw new Error(shot.screenshot_error);
  return { times, lines: page.lines, width: shot.screenshot.width, height: shot.screenshot.height };
}"""
)


def image_tokens(width: int, height: int) -> int:
    """OpenAI's high-detail price of an image: fit in 2048 x 2048, shortest side to 768, 170 tokens per
    512-pixel tile plus 85."""
    scale = min(1.0, 2048 / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, 768 / min(width, height))
    tiles = math.ceil(width * scale / 512) * math.ceil(height * scale / 512)
    return 170 * tiles + 85


def _files() -> dict[str, str]:
    suffixes = {".html", ".js", ".css"}
    found = sorted(path for path in Path(TODOMVC).rglob("*") if path.suffix in suffixes)
    return {"/" + str(path.relative_to(TODOMVC)): path.read_text() for path in found}


def _drive() -> dict:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_context(service_workers="block").new_page()
        page.goto(f"{server.origin}/build.json")  # the app's origin, without booting the app
        answer = page.evaluate(DRIVE, [_files(), TODOS, RUNS])
        browser.close()
    return answer


def hands() -> list[Figure]:
    from agentlite.tools.page_hands import SNAPSHOT_CHARS, SNAPSHOT_LINES
    from agentlite.tools.page_snapshot import cut_snapshot

    answer = _drive()
    text = cut_snapshot(answer["lines"], SNAPSHOT_LINES, SNAPSHOT_CHARS)
    tokens = count_tokens([text])[text]
    picture = image_tokens(answer["width"], answer["height"])
    return [
        Figure("preview_act", median(answer["times"]), "ms", None, RUNS, "p50 ≤ 100 ms"),
        Figure("snapshot_tokens", tokens, "tokens", picture, 1, "≤ 1,500 tokens and ≤ 0.3× the screenshot's"),
    ]
