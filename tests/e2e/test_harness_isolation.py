"""The harness's warm start shares only the Pyodide snapshot: each test's page starts blank, and its origin
holds no IndexedDB, localStorage, OPFS entries, service workers or Cache Storage but the snapshot's,
even when an earlier test in the same session wrote all of them."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e import warm_start

STORAGE = """async () => ({
  idb: (await indexedDB.databases()).map((d) => d.name),
  local: localStorage.length,
  opfs: await (async () => {
    const out = [];
    for await (const name of (await navigator.storage.getDirectory()).keys()) out.push(name);
    return out;
  })(),
  caches: await caches.keys(),
  workers: (await navigator.serviceWorker?.getRegistrations?.() ?? []).length,
})"""

LEAVE_TRACES = """async () => {
  localStorage.setItem("left-behind", "1");
  indexedDB.open("left-behind");
  const root = await navigator.storage.getDirectory();
  await root.getFileHandle("left-behind", { create: true });
  await (await caches.open("left-behind")).put("/left-behind", new Response("x"));
}"""


def storage_of(page: Page, origin: str) -> dict[str, object]:
    assert page.url == "about:blank"
    page.goto(f"{origin}/build.json")
    found: dict[str, object] = page.evaluate(STORAGE)
    return found


def test_a_first_test_leaves_traces_in_every_store(page: Page, origin: str) -> None:
    storage_of(page, origin)
    page.evaluate(LEAVE_TRACES)
    assert page.evaluate("() => localStorage.length") == 1


def test_the_next_test_starts_with_only_the_snapshot_stored(page: Page, origin: str) -> None:
    found = storage_of(page, origin)
    snapshot_only = [warm_start.CACHE_NAME] if warm_start.enabled() else []
    assert found == {"idb": [], "local": 0, "opfs": [], "caches": snapshot_only, "workers": 0}
