"""Chat tabs and modes persist across a reload: messages, tool cards with their final status, titles,
modes, the active tab; a tab can be renamed and closed."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import send, wait_ready

TABS = "[data-testid=chat-tab]"
WAIT_MS = 60_000

# The chats as stored by the worker (IndexedDB `agentlite`, store `chats`): {key: JSON text}.
READ_CHATS = """
() => new Promise((resolve, reject) => {
  const open = indexedDB.open("agentlite");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const out = {};
    const tx = db.transaction("chats", "readonly");
    const cursor = tx.objectStore("chats").openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at) return;
      out[at.key] = at.value;
      at.continue();
    };
    tx.oncomplete = () => { db.close(); resolve(out); };
  };
})
"""

SAVED = """
async ([title, count]) => {
  const stored = await (READ_CHATS)();
  const tabs = JSON.parse(stored.tabs || "{}");
  const records = Object.entries(stored).filter(([k]) => k.startsWith("chat:")).map(([, v]) => JSON.parse(v));
  const first = records.find((r) => r.title === title);
  return (tabs.order || []).length === count && records.length === count
    && Boolean(first && first.messages.some((m) => m.role === "tool"));
}
""".replace("READ_CHATS", READ_CHATS.strip())


def tab_titles(page: Page) -> list[str]:
    return page.locator(f"{TABS} .tab-title").all_inner_texts()


def test_tabs_modes_and_messages_survive_a_reload(app: Page) -> None:
    send(app, "create a Button component")
    card = app.locator("[data-testid=tool-card]")
    expect(card).to_have_attribute("data-status", "completed", timeout=WAIT_MS)
    tool = card.get_attribute("data-tool")
    app.locator("[data-testid=message][data-role=assistant][data-state=done]").last.wait_for(timeout=WAIT_MS)

    app.locator(TABS).first.dblclick()
    app.fill("[data-testid=chat-tab-rename]", "Buttons")
    app.press("[data-testid=chat-tab-rename]", "Enter")
    app.click("[data-testid=chat-tab-new]")
    app.click("[data-testid=mode-toggle]")
    expect(app.locator("[data-testid=mode-toggle]")).to_have_attribute("data-mode", "chat")
    app.click("[data-testid=chat-tab-new]")
    expect(app.locator(TABS)).to_have_count(3)
    app.locator(f"{TABS}[data-active=true] [data-testid=chat-tab-close]").click()
    expect(app.locator(TABS)).to_have_count(2)
    assert tab_titles(app) == ["Buttons", "Chat 2"]
    app.wait_for_function(SAVED, arg=["Buttons", 2], timeout=WAIT_MS)

    app.reload()
    wait_ready(app)
    expect(app.locator(TABS)).to_have_count(2, timeout=WAIT_MS)
    expect(app.locator(f"{TABS} .tab-title").first).to_have_text("Buttons", timeout=WAIT_MS)
    assert tab_titles(app) == ["Buttons", "Chat 2"]
    expect(app.locator(TABS).nth(1)).to_have_attribute("data-active", "true")
    expect(app.locator("[data-testid=mode-toggle]")).to_have_attribute("data-mode", "chat")

    app.locator(TABS).first.click()
    expect(app.locator("[data-testid=mode-toggle]")).to_have_attribute("data-mode", "agent")
    shown = app.locator(".message-list:not([hidden])")
    user = shown.locator("[data-testid=message][data-role=user]")
    expect(user.locator(".message-body")).to_have_text("create a Button component")
    expect(user.locator("[data-testid=restore-turn]")).to_have_count(1)
    restored = shown.locator("[data-testid=tool-card]")
    expect(restored).to_have_count(1)
    expect(restored).to_have_attribute("data-status", "completed")
    expect(restored).to_have_attribute("data-tool", tool or "")
    assert shown.locator("[data-testid=message][data-role=assistant][data-state=done]").count() >= 1


def test_closing_the_last_tab_leaves_a_fresh_one(app: Page) -> None:
    send(app, "hello")
    app.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=WAIT_MS)
    app.locator(f"{TABS} [data-testid=chat-tab-close]").click()
    expect(app.locator(TABS)).to_have_count(1)
    expect(app.locator("[data-testid=message]:visible")).to_have_count(0)
    app.reload()
    wait_ready(app)
    expect(app.locator(TABS)).to_have_count(1)
    expect(app.locator("[data-testid=message]:visible")).to_have_count(0)
