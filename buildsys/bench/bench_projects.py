"""`project_switch`: from a click on another project in the switcher to that project's file tree listing its
files and its chat box taking input, between two 1,000-file projects (docs/projects.md). Switching opens the
project's address, so the figure is a returning visit of the app on another database: the tree is painted
from IndexedDB before Python is up and the composer takes a message at once (it waits in the worker's
inbox). `project_switch_ready` is the same until the agent is ready. One persistent Chromium profile
(warm caches and the stored snapshot, as a user who switches has); the two projects alternate."""

from __future__ import annotations

import base64
import io
import tempfile
import zipfile
from typing import Any
from urllib.parse import quote

from buildsys.bench.bench_browser import persistent_context, wait_for_value
from buildsys.bench.bench_figure import Figure, median
from buildsys.build.serve import StaticServer
from buildsys.common import DIST, say

FILES = 1_000
RUNS = 6
NAMES = ("Bench A", "Bench B")
# Marks when the tree lists files and the chat box takes input, and when the agent is ready (ms since the
# navigation began).
PROBE = """
new MutationObserver(() => {
  const tree = document.querySelector('[data-testid=file-tree] [data-testid=file-item]');
  const input = document.querySelector('[data-testid=chat-input]');
  if (tree && input && !input.disabled && window.__usableAt === undefined)
    window.__usableAt = performance.now();
  if (document.querySelector('[data-testid=app][data-state=ready]') && window.__readyAt === undefined)
    window.__readyAt = performance.now();
}).observe(document, {subtree: true, attributes: true, childList: true});
"""


def project_zip(tag: str) -> str:
    """1,000 small source files in 10 folders, as the base64 zip `vfs.importZip` takes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(FILES):
            body = f"# {tag} module {index}\ndef f{index}(x):\n    return x + {index}\n"
            archive.writestr(f"pkg{index // 100}/module{index}.py", body)
    return base64.b64encode(out.getvalue()).decode()


def url_of(origin: str, name: str) -> str:
    return f"{origin}/index.html?project={quote(name)}"


def seed(context: Any, origin: str) -> None:
    page = context.new_page()
    for name in NAMES:
        page.goto(url_of(origin, name))
        page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
        page.evaluate("(data) => window.agentlite.vfs.importZip(data)", project_zip(name))
    page.close()


def switch(page: Any, to: str) -> tuple[float, float]:
    """Click project `to` in the switcher; (ms to usable, ms to ready) on the page it opens."""
    page.click("[data-testid=project-switcher]")
    with page.expect_navigation():
        page.click(f"[data-testid=project-item][data-name='{to}'] button")
    usable = float(wait_for_value(page, "() => window.__usableAt", 120))
    ready = float(wait_for_value(page, "() => window.__readyAt", 120))
    return usable, ready


def project_switch() -> list[Figure]:
    from playwright.sync_api import sync_playwright

    usable: list[float] = []
    ready: list[float] = []
    with StaticServer(DIST) as server, sync_playwright() as playwright, tempfile.TemporaryDirectory() as user:
        context = persistent_context(playwright, user)
        seed(context, server.origin)
        page = context.new_page()
        page.add_init_script(PROBE)
        page.goto(url_of(server.origin, NAMES[0]))
        wait_for_value(page, "() => window.__readyAt", 120)
        for run in range(RUNS):
            times = switch(page, NAMES[(run + 1) % 2])
            usable.append(times[0])
            ready.append(times[1])
        context.close()
    say(f"project_switch: usable {usable} ms, ready {ready} ms")
    return [
        Figure("project_switch", median(usable), "ms", runs=RUNS, goal="≤ 500 ms"),
        Figure("project_switch_ready", median(ready), "ms", runs=RUNS),
    ]
