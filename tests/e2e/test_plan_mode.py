"""Plan mode end to end with the demo model, in every dialect it speaks: `?mode=plan`, a plan turn that
reads and changes nothing, the plan edited on its card, approved — the chat switches to Agent mode and
the agent carries the edited plan out, ticking its steps. The proposed plan survives a reload, passes
axe and is edited and approved with the keyboard alone; the mode button goes Agent → Chat → Plan → Agent."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.test_demo_scenarios import WAIT_MS, card, vfs, wait_file, wait_status
from tests.e2e.test_ui_accessibility import assert_clean, page_under_axe, tab_to  # noqa: F401 (a fixture)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = '<!doctype html>\n<html lang="en">\n<body>\n  <h1>Hello</h1>\n</body>\n</html>\n'
TOGGLE = "[data-testid=mode-toggle]"
PLAN = "[data-testid=plan-card]"
SHOWN = ".message-list:not([hidden])"
ASK = "plan: add a footer to index.html"
FOOTER_STEP = 'Edit /index.html: add a footer that says "{}" before </body>'


def with_footer(words: str) -> str:
    return PAGE.replace("</body>", f"  <footer>{words}</footer>\n</body>")


def plan_turn(page: Page) -> None:
    """The demo plans: it lists and reads, proposes three steps, and the page is as it was."""
    vfs(page, "writeText", "/index.html", PAGE)
    send(page, ASK)
    expect(page.locator(PLAN)).to_have_attribute("data-state", "proposed", timeout=WAIT_MS)
    expect(page.locator(".message-list:not([hidden])")).to_have_attribute(
        "data-busy", "false", timeout=WAIT_MS
    )
    assert wait_status(page, card(page, "list_directory"), {"completed"}) == "completed"
    assert wait_status(page, card(page, "read_file"), {"completed"}) == "completed"
    expect(page.locator(f"{PLAN} li")).to_have_count(3)
    expect(page.locator(f"{PLAN} li").nth(1)).to_have_text(FOOTER_STEP.format("Made with AgentLite"))
    assert page.locator("[data-testid=tool-card]").count() == 2  # nothing but the two reads
    assert vfs(page, "readText", "/index.html") == PAGE


def carried_out(page: Page, words: str) -> None:
    """Approved: Agent mode, the plan sent as the next message, the page changed, every step ticked."""
    expect(page.locator(TOGGLE)).to_have_attribute("data-mode", "agent")
    expect(page.locator(PLAN)).to_have_attribute("data-state", "approved")
    user = page.locator("[data-testid=message][data-role=user] .message-body").last
    expect(user).to_contain_text("Carry out this approved plan:")
    wait_file(page, "/index.html", with_footer(words))
    done = page.locator("[data-testid=plan] li[data-done=true]")
    expect(done).to_have_count(3, timeout=WAIT_MS)
    assert wait_status(page, card(page, "edit_file"), {"completed", "failed"}) == "completed"


@pytest.mark.parametrize("dialect", ["native", "json", "ndjson"])
def test_a_plan_is_proposed_edited_approved_and_carried_out(page: Page, origin: str, dialect: str) -> None:
    open_app(page, origin, mode="plan", dialect=dialect)
    expect(page.locator(TOGGLE)).to_have_attribute("data-mode", "plan")
    plan_turn(page)
    page.click("[data-testid=plan-edit]")
    text = page.locator("[data-testid=plan-text]")
    expect(text).to_be_focused()
    text.fill(text.input_value().replace("Made with AgentLite", "Made offline"))
    page.click("[data-testid=plan-edit]")  # saves
    expect(page.locator(f"{PLAN} li").nth(1)).to_have_text(FOOTER_STEP.format("Made offline"))
    assert vfs(page, "readText", "/index.html") == PAGE
    if dialect == "native":
        page.locator(PLAN).scroll_into_view_if_needed()
        page.screenshot(path=str(DOCS / "screenshot-plan.png"))  # the README's picture of Plan mode
    page.click("[data-testid=plan-approve]")
    carried_out(page, "Made offline")


def test_a_proposed_plan_survives_a_reload_passes_axe_and_is_approved_by_keyboard(
    page_under_axe: Page,  # noqa: F811 (the fixture imported above)
) -> None:
    app = page_under_axe
    modes = [str(app.get_attribute(TOGGLE, "data-mode"))]
    for _ in range(3):
        app.click(TOGGLE)
        modes.append(str(app.get_attribute(TOGGLE, "data-mode")))
    assert modes == ["agent", "chat", "plan", "agent"]
    app.click(TOGGLE)
    app.click(TOGGLE)
    expect(app.locator(TOGGLE)).to_have_attribute("aria-label", "Mode: Plan (click for Agent)")
    plan_turn(app)
    app.reload()
    wait_ready(app)
    expect(app.locator(TOGGLE)).to_have_attribute("data-mode", "plan", timeout=WAIT_MS)
    expect(app.locator(PLAN)).to_have_attribute("data-state", "proposed", timeout=WAIT_MS)
    assert_clean(app, "a proposed plan")
    tab_to(app, "[data-testid=plan-edit]")
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=plan-text]")).to_be_focused()
    assert_clean(app, "a plan being edited")
    app.keyboard.press("Escape")  # puts the plan back as it was
    expect(app.locator(PLAN)).to_have_attribute("data-state", "proposed")
    tab_to(app, "[data-testid=plan-approve]")
    app.keyboard.press("Enter")
    carried_out(app, "Made with AgentLite")
