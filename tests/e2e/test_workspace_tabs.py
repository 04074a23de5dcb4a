"""Several pages of the app on one workspace: a change in one page refreshes the others; two pages
writing the same file lose no update (issue 8, scenario 7); a newer schema opened in a second page
makes the first close its connection and ask for a reload (scenario 8)."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page

from tests.e2e.conftest import open_app
from tests.e2e.workspace_support import CALL_TIMEOUT_MS, assert_consistent, sha256, vfs

WRITES = 5


def second_page(context: BrowserContext, origin: str) -> Page:
    return open_app(context.new_page(), origin)


def test_a_change_in_one_page_refreshes_the_others(app: Page, origin: str) -> None:
    vfs(app, "writeText", "/shared/notes.txt", "first")
    other = second_page(app.context, origin)
    item = other.locator("[data-testid=file-item][data-path='/shared/notes.txt']")
    item.click()
    shows = "(text) => document.querySelector('[data-testid=file-view]').textContent.includes(text)"
    other.wait_for_function(shows, arg="first", timeout=CALL_TIMEOUT_MS)

    vfs(app, "writeText", "/shared/notes.txt", "second, from the first page")
    vfs(app, "writeText", "/shared/new.txt", "new")
    other.locator("[data-testid=file-item][data-path='/shared/new.txt']").wait_for(timeout=CALL_TIMEOUT_MS)
    other.wait_for_function(shows, arg="second, from the first page", timeout=CALL_TIMEOUT_MS)


def start_writes(page: Page, label: str) -> None:
    page.evaluate(
        """([label, count]) => {
          window.__writes = Promise.allSettled(Array.from({length: count}, (_, i) =>
            window.agentlite.vfs.writeText('/same.txt', `${label} write ${i}\\n`)))
            .then((all) => all.map((r) => r.status === 'fulfilled' ? 'ok' : r.reason.message));
        }""",
        [label, WRITES],
    )


def test_two_pages_writing_the_same_file_lose_no_update(app: Page, origin: str) -> None:
    other = second_page(app.context, origin)
    start_writes(app, "first page")
    start_writes(other, "second page")
    outcomes = app.evaluate("window.__writes") + other.evaluate("window.__writes")
    stored = {h["sha256"] for h in vfs(app, "history", "/same.txt")}
    for label, page in (("first page", app), ("second page", other)):
        for index in range(WRITES):
            text = f"{label} write {index}\n"
            outcome = outcomes[index if page is app else WRITES + index]
            assert sha256(text) in stored or "conflict" in outcome.lower(), f"lost: {text!r} ({outcome})"
    assert vfs(other, "history", "/same.txt") == vfs(app, "history", "/same.txt")
    assert_consistent(app, ["/same.txt"])


def test_a_newer_schema_in_another_page_asks_this_one_to_reload(app: Page, origin: str) -> None:
    vfs(app, "writeText", "/kept.txt", "kept")
    other = second_page(app.context, origin)
    upgraded = other.evaluate(
        """() => new Promise((resolve, reject) => {
          const probe = indexedDB.open('agentlite');
          probe.onsuccess = () => {
            const next = probe.result.version + 1;
            probe.result.close();
            const request = indexedDB.open('agentlite', next);
            request.onupgradeneeded = () => request.result.createObjectStore('from-a-newer-app');
            request.onsuccess = () => { window.__newer = request.result; resolve(next); };
            request.onerror = () => reject(request.error);
          };
        })"""
    )
    assert upgraded >= 2
    notice = app.locator("[data-testid=storage-reload]")
    notice.wait_for(timeout=CALL_TIMEOUT_MS)
    assert "reload" in notice.inner_text().lower()
    assert notice.locator("[data-testid=storage-reload-button]").is_visible()
    refused = app.evaluate(
        "window.agentlite.vfs.writeText('/late.txt', 'x').then(() => 'stored', (e) => e.message)"
    )
    assert "reload" in refused.lower()
    other.evaluate("window.__newer.close()")
