"""End-to-end harness: Debian Chromium driven by pytest-playwright against dist/ on a free port.

The browser console of every page is printed as it happens, so a failing test shows it. Each test gets
a fresh context that starts warm: the session's Pyodide snapshot is seeded into it (warm_start.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page

from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from tests.e2e import warm_start

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_TIMEOUT_MS = 120_000
Seeder = Callable[[BrowserContext], Page]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cold: the test's contexts start as a first visit (no snapshot)")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


# The service worker precaches the whole build (~22 MB) in every fresh context; tests that are not about
# working offline or updates run without it (tests/e2e/test_offline.py turns it on).
# AGENTLITE_E2E_SERVICE_WORKER=allow runs every test under the service worker.
NO_SERVICE_WORKER = {"service_workers": os.environ.get("AGENTLITE_E2E_SERVICE_WORKER") or "block"}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 860}, **NO_SERVICE_WORKER}


@pytest.fixture(scope="session")
def origin() -> Iterator[str]:
    if not (DIST / "index.html").exists():
        pytest.fail("dist/ is not built: run `python build.py` (or `python build.py test`)")
    with StaticServer(DIST) as server:
        yield server.origin


def pipe_console(page: Page) -> None:
    page.on("console", lambda msg: print(f"[console.{msg.type}] {msg.text}"))
    page.on("pageerror", lambda err: print(f"[pageerror] {err}"))
    page.on("worker", lambda worker: worker.on("console", lambda m: print(f"[worker.{m.type}] {m.text}")))


def wait_ready(page: Page) -> None:
    page.wait_for_selector(
        "[data-testid=app][data-state=ready], [data-testid=app][data-state=failed]",
        state="attached",
        timeout=READY_TIMEOUT_MS,
    )
    state = page.get_attribute("[data-testid=app]", "data-state")
    assert state == "ready", f"app failed to start: {page.inner_text('.load')}"


@pytest.fixture(scope="session")
def warm(
    browser: Any, origin: str, browser_context_args: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Seeder | None]:
    """The session's Pyodide snapshot, made once by a first visit (None when seeding is off)."""
    if not warm_start.enabled():
        yield None
        return
    made = warm_start.make(browser, origin, tmp_path_factory.mktemp("warm"), browser_context_args)
    with StaticServer(made.path.parent) as source:
        yield lambda context: made.seed(context, source.origin)


def _seeder(request: pytest.FixtureRequest) -> Seeder | None:
    """What seeds new contexts with the snapshot, unless the test is about the first visit."""
    if request.node.get_closest_marker("cold") or not warm_start.enabled():
        return None
    seeder: Seeder | None = request.getfixturevalue("warm")
    return seeder


@pytest.fixture
def context(new_context: Any, request: pytest.FixtureRequest) -> BrowserContext:
    """pytest-playwright's fresh context for the test, seeded with the session's snapshot."""
    made: BrowserContext = new_context()
    if seed := _seeder(request):
        seed(made)  # its page, left blank, becomes the test's `page`
    return made


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """The context's first page: the blank one that seeded it when there is one, else a new one."""
    return context.pages[0] if context.pages else context.new_page()


@pytest.fixture
def app(page: Page, origin: str) -> Page:
    """A fresh page of the app, ready (Python agent started)."""
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    return page


@pytest.fixture
def context_factory(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """New isolated contexts for tests that need more than the default one (seeded like `context`)."""
    made: list[BrowserContext] = []
    seed = _seeder(request)

    def make(**kwargs: Any) -> BrowserContext:
        context = browser.new_context(**{**NO_SERVICE_WORKER, **kwargs})
        made.append(context)
        if seed and "user_agent" not in kwargs:  # a snapshot is kept per browser: another one's would not fit
            seed(context).close()  # the test opens its own pages
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def model_server() -> Iterator[Any]:
    """A scripted OpenAI-compatible endpoint (buildsys/testing/model_server.py)."""
    from buildsys.testing.model_server import ModelServer

    with ModelServer() as server:
        yield server


def open_app(page: Page, origin: str, **params: str) -> Page:
    """Load the app with URL parameters (docs/contract.md, URL parameters) and wait until it is ready."""
    from urllib.parse import urlencode

    pipe_console(page)
    page.goto(f"{origin}/index.html" + (f"?{urlencode(params)}" if params else ""))
    wait_ready(page)
    return page


def send(page: Page, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")
