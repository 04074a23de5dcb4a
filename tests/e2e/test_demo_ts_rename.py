"""The demo's TypeScript rename end to end (docs/problems.md): the demo model renames an export, and the
edit's own result — from TypeScript's checker running in the page — names the two importers it broke; the
demo fixes exactly those and check_problems finds the folder clean."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.conftest import send
from tests.e2e.test_demo_scenarios import card, vfs, wait_reply

FIRST_CHECK_MS = 240_000  # the checker's first start (TypeScript and its libraries) on a loaded machine


def finish(page: Page, tool: str, nth: int) -> str:
    """Approve the card when it asks; its final status (a change waits for the checker's answer)."""
    target = card(page, tool, nth)
    target.wait_for(state="attached", timeout=FIRST_CHECK_MS)
    page.wait_for_function(
        """(el) => {
          const ask = el.querySelector('[data-testid=tool-approve]');
          if (el.dataset.status === 'awaiting-approval' && ask) ask.click();
          return ['completed', 'failed', 'rejected'].includes(el.dataset.status);
        }""",
        arg=target.element_handle(),
        timeout=FIRST_CHECK_MS,
    )
    return str(target.get_attribute("data-status"))


def test_the_demo_fixes_the_importers_its_rename_broke_from_the_problems(app: Page) -> None:
    send(app, "rename a TypeScript function")
    for index in range(3):
        assert finish(app, "write_file", index) == "completed"
    for index in range(3):  # the rename, then the two importers its problems name
        assert finish(app, "edit_file", index) == "completed"
    assert finish(app, "check_problems", 0) == "completed"
    wait_reply(app, "Done: total() is sumPrices() now")
    said = app.locator("[data-testid=message][data-role=assistant]").all_inner_texts()
    assert any("by its own problems: /shop/cart.ts, /shop/receipt.ts" in text for text in said), said
    assert "No problems" in card(app, "check_problems", 0).inner_text()
    assert "sumPrices" in str(vfs(app, "readText", "/shop/receipt.ts"))
    assert app.locator("[data-testid=file-problems]").count() == 0
