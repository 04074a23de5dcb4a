"""A full disk (issue 8, scenario 6): with the origin's quota shrunk to about 1 MB through the DevTools
protocol, a large write fails with a clear "storage full" message to the user and to the model, every
earlier version stays readable, and a later small write works."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_app, send
from tests.e2e.workspace_support import assert_consistent, final_reply, tool_round, vfs, wait_for_reply

# The origin's quota is set small here; a seeded 31 MB snapshot in Cache Storage would fill it before
# the test's first write (tests/e2e/warm_start.py).
pytestmark = pytest.mark.cold

QUOTA = 1_000_000
FULL = "storage is full"
VERSIONS = ["first version\n", "second version ✓\n"]


def incompressible(size: int) -> str:
    return secrets.token_hex(size // 2)


def shrink_quota(page: Page, origin: str) -> None:
    """Chromium applies the override only to an origin that has not used its storage yet: call it first."""
    session = page.context.new_cdp_session(page)
    session.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": QUOTA})


def seed(page: Page) -> None:
    for text in VERSIONS:
        vfs(page, "writeText", "/kept/a.txt", text)


def assert_nothing_lost(page: Page) -> None:
    history = vfs(page, "history", "/kept/a.txt")
    assert [h["op"] for h in history] == ["create", "write"]
    assert vfs(page, "readText", "/kept/a.txt") == VERSIONS[-1]
    assert_consistent(page, ["/kept/a.txt"])


def test_a_large_user_write_reports_storage_full(page: Page, origin: str) -> None:
    shrink_quota(page, origin)
    app = open_app(page, origin)
    seed(app)
    outcome = app.evaluate(
        "(text) => window.agentlite.vfs.writeText('/big.txt', text).then(() => 'stored', (e) => e.message)",
        incompressible(3 * QUOTA),
    )
    assert FULL in outcome.lower(), outcome
    assert "nothing saved before was lost" in outcome
    assert vfs(app, "readText", "/big.txt") is None
    assert_nothing_lost(app)
    vfs(app, "writeText", "/small.txt", "still works")
    assert vfs(app, "readText", "/small.txt") == "still works"
    assert_nothing_lost(app)


def test_a_large_agent_write_tells_the_user_and_the_model(page: Page, origin: str, model_server: Any) -> None:
    model_server.script(
        tool_round(("create_file", {"path": "/big.txt", "content": incompressible(3 * QUOTA)})),
        final_reply("Understood: storage is full."),
    )
    shrink_quota(page, origin)
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    seed(page)
    send(page, "write a big file")
    wait_for_reply(page, "Understood")
    card = page.locator("[data-testid=tool-card][data-tool=create_file]")
    assert card.get_attribute("data-status") == "failed"
    assert FULL in card.inner_text().lower()
    tool_results = [m for m in model_server.completions()[-1].body["messages"] if m["role"] == "tool"]
    assert FULL in json.dumps(tool_results).lower()
    assert vfs(page, "readText", "/big.txt") is None
    assert_nothing_lost(page)
    vfs(page, "writeText", "/kept/a.txt", "third, small")
    assert vfs(page, "readText", "/kept/a.txt") == "third, small"


FILL_CHARS = 24_000  # each write's batch stays far under idb.js's CHECK_OVER_BYTES (64 KB)
FILL = """async ([chars, most]) => {
  const hex = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n / 2)),
    (b) => b.toString(16).padStart(2, "0")).join("");
  for (let n = 0; n < most; n++) {
    try {
      await window.agentlite.vfs.writeText(`/fill/${n}.txt`, hex(chars));
    } catch (error) {
      return { stored: n, message: error.message };
    }
  }
  return { stored: most, message: null };
}"""


def test_indexeddb_itself_aborts_when_small_writes_fill_the_quota(page: Page, origin: str) -> None:
    """No write is big enough for the up-front quota check, so the quota is hit inside IndexedDB (a
    QuotaExceededError aborting the transaction): still the storage-full message, nothing lost, an
    earlier version readable, and a later small write works."""
    shrink_quota(page, origin)
    app = open_app(page, origin)
    seed(app)
    filled = app.evaluate(FILL, [FILL_CHARS, 3 * QUOTA // (FILL_CHARS // 4)])
    assert filled["message"] is not None, f"{filled['stored']} writes fit a {QUOTA}-byte quota"
    assert filled["stored"] > 10, filled  # the quota was used up by many small writes
    assert FULL in filled["message"].lower() and "nothing saved before was lost" in filled["message"]
    last = f"/fill/{filled['stored'] - 1}.txt"
    assert len(vfs(app, "readText", last) or "") == FILL_CHARS
    assert vfs(app, "readText", f"/fill/{filled['stored']}.txt") is None
    assert_nothing_lost(app)

    # an earlier version reads back, through the history panel's diff of version 1
    app.locator("[data-testid=file-item][data-path='/kept'] >> nth=0").click()
    app.locator("[data-testid=file-item][data-path='/kept/a.txt'] >> nth=0").click()
    app.locator("[data-testid=history-panel] [data-testid=version-item][data-version='1']").click()
    # the newest version's diff shows first: wait until the panel shows version 1's
    added = app.locator("[data-testid=history-panel] .diff-line.add .diff-text")
    expect(added).to_have_text(["+" + VERSIONS[0].rstrip("\n")], timeout=60_000)

    vfs(app, "writeText", "/small.txt", "still works")
    assert vfs(app, "readText", "/small.txt") == "still works"
    assert_nothing_lost(app)
