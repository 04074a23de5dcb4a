"""The page as everyone meets it: axe-core (WCAG 2.2 A and AA rules) finds no critical or serious
violation on any screen a new user walks through (the first screen, a chat with an approval and tool
cards, the file tree, the open file with its history and diff, the preview, settings), and one whole
task is done with the keyboard alone: send, approve, open the diff, undo."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import pipe_console, send, wait_ready
from tests.e2e.scripted_support import approve_through
from tests.e2e.test_demo_scenarios import APP_TSX, FINAL, card, vfs, wait_file, wait_reply, wait_status
from tests.e2e.test_mcp_servers import add_server, wait_state
from tests.mcp_servers import RunningServer, auth_server, stateless_server

__all__ = ["auth_server", "stateless_server"]
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
RULE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
BLOCKING = {"critical", "serious"}
WAIT_MS = 60_000
PROMPT = "make a small web page"


@pytest.fixture
def page_under_axe(context_factory: Callable[..., Any], origin: str) -> Iterator[Page]:
    """The app in a context that lets the test inject axe-core (the page's own policy allows no inline
    script, rightly); everything else is the app as served."""
    context = context_factory(bypass_csp=True, viewport={"width": 1280, "height": 860})
    page = context.new_page()
    pipe_console(page)
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    yield page


def violations(page: Page) -> list[str]:
    """The critical and serious violations axe finds on the page as it is now, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => {
          const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
          return result.violations.map((v) => ({
            id: v.id, impact: v.impact,
            nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ")),
          }));
        }""",
        RULE_TAGS,
    )
    return [
        f"{v['impact']} {v['id']} at {node}" for v in found if v["impact"] in BLOCKING for node in v["nodes"]
    ]


def assert_clean(page: Page, screen: str) -> None:
    found = violations(page)
    assert not found, f"{screen}:\n" + "\n".join(found)


def test_every_screen_of_a_first_task_passes_axe(page_under_axe: Page) -> None:
    page = page_under_axe
    assert_clean(page, "the first screen")
    send(page, "sum of primes below 1000")
    js = card(page, "browser_js_eval")
    assert wait_status(page, js, {"awaiting-approval"}) == "awaiting-approval"
    assert_clean(page, "a chat with an approval")
    js.locator("[data-testid=tool-approve]").click()
    wait_reply(page, "76127")
    send(page, PROMPT)
    for index in range(3):
        assert approve_through(page, card(page, "write_file", index)) == "completed"
    assert approve_through(page, card(page, "preview_page")) == "completed"
    wait_reply(page, "The page is up in the Preview panel")
    vfs(page, "writeText", "/docs/notes.md", "# Notes\n")  # a folder in the tree too
    expect(page.locator("[data-testid=file-item][data-path='/docs/notes.md']")).to_be_visible(timeout=WAIT_MS)
    assert_clean(page, "a chat with tool cards, the file tree and the preview")
    vfs(page, "writeText", "/index.html", vfs(page, "readText", "/index.html") + "<!-- changed -->\n")
    page.locator("[data-testid=file-item][data-path='/index.html'] >> nth=0").click()
    expect(page.locator("[data-testid=file-view]")).to_have_attribute(
        "data-path", "/index.html", timeout=WAIT_MS
    )
    expect(page.locator("[data-testid=history-panel] [data-testid=version-item]")).to_have_count(
        2, timeout=WAIT_MS
    )
    assert_clean(page, "the open file with its history and diff")
    page.locator("[data-testid=settings-open]").click()
    expect(page.locator("[data-testid=settings-base-url]")).to_be_visible(timeout=WAIT_MS)
    assert_clean(page, "settings")


def tab_to(page: Page, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches `selector`: what a keyboard user does. In the code
    editor, where Tab indents, Escape first (its label tells the way out)."""
    for _ in range(limit):
        if page.evaluate("() => document.activeElement?.matches('[data-testid=file-view]') ?? false"):
            page.keyboard.press("Escape")
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    seen = page.evaluate("() => document.activeElement?.outerHTML.slice(0, 120)")
    raise AssertionError(f"{limit} presses of Tab never reached {selector} (last: {seen})")


def test_a_whole_task_with_the_keyboard_alone(page_under_axe: Page) -> None:
    """Send, approve, open the diff, undo the turn: every step by keys, none by pointer."""
    page = page_under_axe
    vfs(page, "writeText", "/src/App.tsx", APP_TSX)
    tab_to(page, "[data-testid=chat-input]")
    page.keyboard.type("sum of primes below 1000")
    page.keyboard.press("Enter")
    js = card(page, "browser_js_eval")
    assert wait_status(page, js, {"awaiting-approval"}) == "awaiting-approval"
    tab_to(page, "[data-testid=tool-approve]")
    page.keyboard.press("Enter")
    wait_reply(page, "76127")
    tab_to(page, "[data-testid=chat-input]")
    page.keyboard.type("Change the title of App.tsx to 'Hello Lite'")
    page.keyboard.press("Enter")
    edit = card(page, "edit_file")
    assert wait_status(page, edit, FINAL) == "completed"
    wait_reply(page, "Done: the title")
    assert "Hello Lite" in vfs(page, "readText", "/src/App.tsx")
    tab_to(page, "[data-testid=tool-diff] summary")
    page.keyboard.press("Enter")
    expect(edit.locator(".diff-line.add")).to_have_count(1, timeout=WAIT_MS)
    page.on("dialog", lambda dialog: dialog.accept())
    turn = vfs(page, "history", "/src/App.tsx")[-1]["turn"]
    tab_to(page, f"[data-testid=restore-turn][data-turn='{turn}']")
    page.keyboard.press("Enter")
    wait_file(page, "/src/App.tsx", APP_TSX)


CLIPPED = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const out = [];
  for (const el of document.querySelectorAll("button, input, select, textarea, [role=tab]")) {
    if (!shown(el) || el.closest("[hidden], dialog:not([open])")) continue;
    const box = el.getBoundingClientRect();
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      if (["auto", "scroll"].includes(style.overflowX) || ["auto", "scroll"].includes(style.overflowY)) break;
      const room = up.getBoundingClientRect();
      if (box.right > room.right + 1 || box.left < room.left - 1 || box.bottom > room.bottom + 1) {
        out.push((el.textContent || el.getAttribute("aria-label") || el.dataset.testid || el.tagName).trim());
      }
      break;
    }
  }
  return out;
}"""


@pytest.mark.parametrize("width", [1280, 1440, 1920, 390])
def test_no_control_is_cut_off(context_factory: Callable[..., Any], origin: str, width: int) -> None:
    """At desktop widths from 1280 px and on a phone, every visible control shows whole."""
    page = context_factory(viewport={"width": width, "height": 860}).new_page()
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    vfs(page, "writeText", "/src/App.tsx", APP_TSX)
    switches = page.locator("[data-testid=panel-switch]")
    phone = switches.first.is_visible()  # a narrow screen shows one panel at a time
    for panel in ["files", "editor", "chat"] if phone else ["all"]:
        if phone:
            page.locator(f"[data-testid=panel-switch][data-panel={panel}]").click()
        if panel in ("files", "all"):
            page.locator("[data-testid=file-item][data-path='/src/App.tsx'] >> nth=0").click()
        assert page.evaluate(CLIPPED) == [], f"{width} px, {panel}"


def test_the_servers_panel_passes_axe(
    page_under_axe: Page, stateless_server: RunningServer, auth_server: RunningServer
) -> None:
    """The Servers panel with a connected server (its tools) and one that needs sign-in (its diagnosis,
    Sign in and the token field)."""
    page = page_under_axe
    add_server(page, stateless_server.url)
    wait_state(page, stateless_server.url, "connected")
    add_server(page, auth_server.url)
    wait_state(page, auth_server.url, "needs-auth")
    assert_clean(page, "the Servers panel")


def test_the_projects_dialog_passes_axe_and_works_by_keyboard(page_under_axe: Page) -> None:
    page = page_under_axe
    tab_to(page, "[data-testid=project-switcher]")
    page.keyboard.press("Enter")
    page.locator("[data-testid=project-item]").first.wait_for()
    assert_clean(page, "the projects dialog")
    tab_to(page, "[data-testid=project-name]")
    page.keyboard.type("Second")
    tab_to(page, "[data-testid=project-new]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=app][data-state=ready]", state="attached", timeout=120_000)
    assert page.inner_text("[data-testid=project-switcher]") == "Second"
