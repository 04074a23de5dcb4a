"""Chat tabs and modes persist across a reload: messages, tool cards with their final status, titles,
modes, the active tab; a tab can be renamed and closed, and a chat closed mid-turn stays closed. What a
turn shows besides its messages: the plan checklist, why the engine stopped, the context meter, and
thinking apart from the answer."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import send, wait_ready
from tests.e2e.scripted_support import start
from tests.e2e.test_demo_scenarios import APP_TSX, vfs, wait_reply

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


def test_a_chat_closed_mid_turn_does_not_come_back(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    slow = [f"word{n} " for n in range(40)]
    model_server.script(
        Scripted(chunks=text_chunks(*slow), delay=0.1),
        Scripted(chunks=text_chunks(*[f"later{n} " for n in range(50)]), delay=0.1),
    )
    start(page, origin, model_server)
    send(page, "a long answer please")
    first = page.locator("[data-testid=message][data-role=assistant]").first
    expect(first).to_contain_text("word0", timeout=WAIT_MS)
    closed = page.locator(f"{TABS}[data-active=true]").get_attribute("data-chat")
    page.locator(f"{TABS}[data-active=true] [data-testid=chat-tab-close]").click()
    expect(page.locator(TABS)).to_have_count(1)
    # a reply in the fresh tab that ends after the closed chat's turn would have ended on its own
    send(page, "and now?")
    expect(page.locator("[data-testid=message][data-role=assistant]").last).to_have_attribute(
        "data-state", "done", timeout=WAIT_MS
    )
    expect(page.locator(TABS)).to_have_count(1)
    assert page.locator(f"{TABS}[data-chat='{closed}']").count() == 0
    assert page.get_by_text("word1").count() == 0


def test_a_plan_checklist_is_shown_and_ticked(app: Page) -> None:
    vfs(app, "writeText", "/src/App.tsx", APP_TSX)
    send(app, "Look at src and update the App title to 'Planned'")
    wait_reply(app, "Done: the title")
    plan = app.locator("[data-testid=plan]")
    expect(plan).to_have_count(1)
    steps = plan.locator("li")
    assert steps.all_inner_texts() == ["☑ List /src", "☑ Read /src/App.tsx", "☑ Change its title"]
    assert [s.get_attribute("data-done") for s in steps.all()] == ["true", "true", "true"]


def test_the_reason_the_engine_stopped_is_shown(app: Page) -> None:
    app.click("[data-testid=settings-open]")
    app.fill("[data-testid=settings-max-rounds]", "2")
    app.click("[data-testid=settings-save]")
    vfs(app, "writeText", "/src/App.tsx", APP_TSX)
    send(app, "Change the title of App.tsx to 'Never'")
    stopped = app.locator("[data-testid=stopped-reason]")
    expect(stopped).to_have_attribute("data-reason", "max_rounds", timeout=WAIT_MS)
    expect(stopped).to_contain_text("all 2 tool rounds")
    assert vfs(app, "readText", "/src/App.tsx") == APP_TSX  # it stopped before the edit


def test_the_context_meter_shows_each_tabs_use(app: Page) -> None:
    meter = app.locator("[data-testid=context-meter]")
    send(app, "hello")
    app.locator("[data-testid=message][data-role=assistant][data-state=done]").wait_for(timeout=WAIT_MS)
    expect(meter).to_have_text(re.compile(r"^context [\d,]+ / [\d,]+$"), timeout=WAIT_MS)
    used, window = int(meter.get_attribute("data-used") or 0), int(meter.get_attribute("data-window") or 0)
    assert 0 < used < window
    app.click("[data-testid=chat-tab-new]")
    expect(meter).to_have_text("")
    app.locator(TABS).first.click()
    expect(meter).to_have_attribute("data-used", str(used))


def test_thinking_is_apart_from_the_answer_and_collapses(app: Page) -> None:
    send(app, "think about naming")
    reply = wait_reply(app, "Short, specific names win")
    thinking = reply.locator("[data-testid=thinking]")
    expect(thinking).to_contain_text("The user wants naming advice.")
    assert "Short, specific names" not in thinking.inner_text()
    assert "naming advice" not in reply.locator(".message-body").inner_text()
    body = thinking.locator("div")
    expect(body).to_be_visible()
    thinking.locator("summary").click()
    expect(body).to_be_hidden()
    assert thinking.evaluate("(el) => el.open") is False
    thinking.locator("summary").press("Enter")
    expect(body).to_be_visible()
