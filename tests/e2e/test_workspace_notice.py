"""Persistent storage: the page asks for it; when the browser does not grant it, a visible, dismissible
warning points to exporting the workspace."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import open_app, wait_ready
from tests.e2e.workspace_support import vfs

GRANTED = """
Object.defineProperty(navigator.storage, 'persisted', {value: () => Promise.resolve(true)});
"""
# Counts the page's calls of navigator.storage.persist() (installed before any script of the page);
# `GRANT` says what the browser answers (null: its own answer).
PERSIST_SPY = """
window.__persistCalls = [];
const realPersist = navigator.storage.persist.bind(navigator.storage);
Object.defineProperty(navigator.storage, 'persist', {
  value: () => {
    window.__persistCalls.push(performance.now());
    return GRANT === null ? realPersist() : Promise.resolve(GRANT);
  },
});
"""


def test_not_persistent_storage_shows_a_dismissible_warning(page: Page, origin: str, tmp_path: Path) -> None:
    app = open_app(page, origin)
    assert app.evaluate("navigator.storage.persisted()") is False  # headless Chromium does not grant it
    warning = app.locator("[data-testid=storage-warning]")
    warning.wait_for(timeout=60_000)
    assert "export" in warning.inner_text().lower()

    vfs(app, "writeText", "/saved.txt", "export me")
    with app.expect_download() as download:
        warning.locator("[data-testid=storage-warning-export]").click()
    saved = tmp_path / "export.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        assert archive.read("files/saved.txt") == b"export me"

    warning.locator("[data-testid=storage-warning-dismiss]").click()
    assert warning.count() == 0
    app.reload()
    wait_ready(app)
    app.locator("[data-testid=app][data-storage=transient]").wait_for(state="attached", timeout=60_000)
    assert app.locator("[data-testid=storage-warning]").count() == 0


def test_persistent_storage_shows_no_warning(page: Page, origin: str) -> None:
    page.add_init_script(GRANTED)
    app = open_app(page, origin)
    app.locator("[data-testid=app][data-storage=persistent]").wait_for(state="attached", timeout=60_000)
    assert app.locator("[data-testid=storage-warning]").count() == 0


@pytest.mark.parametrize(("grant", "state"), [("null", "transient"), ("true", "persistent")])
def test_persistent_storage_is_requested_at_startup(page: Page, origin: str, grant: str, state: str) -> None:
    page.add_init_script(f"const GRANT = {grant};\n{PERSIST_SPY}")
    app = open_app(page, origin)
    app.locator(f"[data-testid=app][data-storage={state}]").wait_for(state="attached", timeout=60_000)
    assert app.evaluate("window.__persistCalls.length") == 1  # asked once, at startup
    assert app.evaluate("navigator.storage.persisted()") is False  # so the request was needed
    warnings = app.locator("[data-testid=storage-warning]")
    if state == "persistent":
        assert warnings.count() == 0
    else:
        warnings.wait_for(timeout=60_000)
