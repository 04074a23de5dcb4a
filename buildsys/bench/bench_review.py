"""`review_open`: a 200-file staged turn → the review panel usable (docs/stage.md, docs/review.md).
The turn is one reply of a scripted model writing 200 files with `?changes=review`; then another chat
tab is opened, and the figure is from the click back on the first chat's tab to its review listing all
200 files (the review read and drawn from nothing). Each run clicks back again. Chromium, one page."""

from __future__ import annotations

from typing import Any

from buildsys.bench.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, say
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks

FILES = 200
RUNS = 5
# Marks when the review lists every file (ms since navigation); reset by the bench before each click.
PROBE = """
new MutationObserver(() => {
  const rows = document.querySelectorAll('[data-testid=review-panel] [data-testid=review-file]').length;
  if (window.__clickedAt !== undefined && rows >= FILES_WANTED && window.__usableAt === undefined)
    window.__usableAt = performance.now();
}).observe(document, {subtree: true, attributes: true, childList: true});
""".replace("FILES_WANTED", str(FILES))


def turn_calls(run: int) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("write_file", {"path": f"/src/m{i % 10}/f{i}.ts", "content": f"export const v{i} = {run};\n"})
        for i in range(FILES)
    ]


def staged_turn(page: Any, model: ModelServer) -> None:
    model.script(Scripted(chunks=tool_call_chunks(*turn_calls(0))), Scripted(chunks=text_chunks("Done.")))
    page.fill("[data-testid=chat-input]", f"write the {FILES} files")
    page.click("[data-testid=chat-send]")
    page.wait_for_selector("[data-testid=chat-stop]", state="visible", timeout=60_000)
    page.wait_for_selector("[data-testid=chat-stop]", state="hidden", timeout=300_000)
    rows = "[data-testid=review-panel] [data-testid=review-file]"
    wait_for_value(page, f"() => document.querySelectorAll({rows!r}).length >= {FILES} || null", 120)
    page.click("[data-testid=chat-tab-new]")
    page.wait_for_selector("[data-testid=review-panel]", state="detached", timeout=60_000)


def one_run(page: Any) -> float:
    """Click the staged chat's tab; ms until its review lists every file. Then back to the other tab."""
    tabs = page.locator("[data-testid=chat-tab]")
    page.evaluate("() => { window.__usableAt = undefined; window.__clickedAt = performance.now(); }")
    tabs.first.click()
    usable = float(wait_for_value(page, "() => window.__usableAt ?? null", 120))
    took = usable - float(page.evaluate("() => window.__clickedAt"))
    page.evaluate("() => { window.__clickedAt = undefined; }")
    tabs.last.click()
    page.wait_for_selector("[data-testid=review-panel]", state="detached", timeout=60_000)
    return took


def review_open() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    with StaticServer(DIST) as server, ModelServer() as model, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.add_init_script(PROBE)
        query = f"base_url={model.base_url}&model=test-model&dialect=native&changes=review"
        page.goto(f"{server.origin}/index.html?{query}")
        page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
        staged_turn(page, model)
        for _run in range(RUNS):
            times.append(one_run(page))
        browser.close()
    say(f"review_open: {times} ms")
    return [Figure("review_open", median(times), "ms", runs=RUNS, goal="≤ 300 ms")]
