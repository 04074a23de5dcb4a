"""Tool cards: the walk of a card through its statuses (recorded as it happens), the diff of a file
change (collapsed until opened), the duration chip, and in `ndjson` the tool's own thinking inside its
card."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_app, send
from tests.e2e.test_demo_scenarios import APP_TSX, FINAL, card, vfs, wait_reply, wait_status

WAIT_MS = 60_000

# Every data-status a card shows, in order: each attribute record holds the value it replaced, so the
# walk is exact even when several changes land in one observer callback.
RECORD_WALKS = """
window.__cards = [];
window.__replaced = new Map();
const seen = (el) => {
  if (!window.__replaced.has(el)) { window.__cards.push(el); window.__replaced.set(el, []); }
};
new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === 'attributes' && r.target.matches('[data-testid=tool-card]')) {
      seen(r.target);
      window.__replaced.get(r.target).push(r.oldValue);
    }
    for (const node of r.addedNodes || []) {
      if (node.nodeType !== 1) continue;
      for (const el of [node, ...node.querySelectorAll('[data-testid=tool-card]')]) {
        if (el.matches('[data-testid=tool-card]')) seen(el);
      }
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeOldValue: true,
                      attributeFilter: ['data-status']});
"""
WALKS = """() => window.__cards.map((el) => {
  const walk = [...window.__replaced.get(el), el.dataset.status];
  return [el.dataset.tool, ...walk.filter((s, i) => s !== walk[i - 1])];
})"""


def test_cards_walk_through_their_statuses(app: Page) -> None:
    app.evaluate(RECORD_WALKS)
    send(app, "Create a Button component")
    assert wait_status(app, card(app, "create_file"), FINAL) == "completed"
    wait_reply(app, "Created /src/Button.tsx")
    send(app, "delete /src/Button.tsx")
    delete = card(app, "delete_file")
    assert wait_status(app, delete, {"awaiting-approval", *FINAL}) == "awaiting-approval"
    delete.locator("[data-testid=tool-approve]").click()
    assert wait_status(app, delete, FINAL) == "completed"
    wait_reply(app, "Deleted /src/Button.tsx")
    assert app.evaluate(WALKS) == [
        ["create_file", "pending", "executing", "completed"],
        ["delete_file", "pending", "awaiting-approval", "executing", "completed"],
    ]


def test_a_file_change_shows_its_diff_and_duration(app: Page) -> None:
    vfs(app, "writeText", "/src/App.tsx", APP_TSX)
    send(app, "Change the title of App.tsx to 'Hello Lite'")
    edit = card(app, "edit_file")
    assert wait_status(app, edit, FINAL) == "completed"
    wait_reply(app, "Done: the title")
    diff = edit.locator("[data-testid=tool-diff]")
    expect(diff).to_contain_text("Diff of /src/App.tsx")
    lines = diff.locator(".diff-line")
    expect(lines.first).to_be_hidden()  # collapsed until the user opens it
    diff.locator("summary").click()
    expect(diff.locator(".diff-line.del")).to_have_count(1, timeout=WAIT_MS)
    assert diff.locator(".diff-line.del .diff-text").all_text_contents() == ["-      <h1>Old Title</h1>"]
    assert diff.locator(".diff-line.add .diff-text").all_text_contents() == ["+      <h1>Hello Lite</h1>"]
    assert diff.locator(".revert-hunk").count() == 0
    assert card(app, "read_file").locator("[data-testid=tool-diff]").count() == 0  # reading changes nothing

    chip = edit.locator(".tool-chip")
    assert re.fullmatch(r"completed · \d+ ms", chip.inner_text()), chip.inner_text()
    duration = edit.get_attribute("data-duration-ms")
    assert duration is not None and chip.inner_text() == f"completed · {duration} ms"


def test_a_created_file_shows_its_whole_content_as_added(app: Page) -> None:
    send(app, "Create a Button component")
    create = card(app, "create_file")
    assert wait_status(app, create, FINAL) == "completed"
    create.locator("[data-testid=tool-diff] summary").click()
    added = create.locator("[data-testid=tool-diff] .diff-line.add .diff-text")
    expect(added.first).to_have_text('+import React from "react";', timeout=WAIT_MS)
    content = vfs(app, "readText", "/src/Button.tsx")
    assert added.count() == content.count("\n")
    assert create.locator("[data-testid=tool-diff] .diff-line.del").count() == 0


def test_ndjson_shows_the_tools_own_thinking_in_its_card(page: Page, origin: str) -> None:
    open_app(page, origin, dialect="ndjson")
    send(page, "write a long file")
    write = card(page, "create_file")
    assert wait_status(page, write, FINAL) == "completed"
    wait_reply(page, "Wrote /notes/long-notes.md")
    expect(write.locator("[data-testid=tool-thinking]")).to_have_text("Calling create_file.")
    reply = page.locator("[data-testid=message][data-role=assistant]").first
    for thought in reply.locator("[data-testid=thinking]").all():
        assert "Calling create_file." not in thought.inner_text()
