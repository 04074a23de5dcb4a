"""The first minutes and the daily loop: the first screen and its examples (the demo model's own list),
the editor following the agent (live, then the diff; never over the user's typing), code from the chat
into files with their undo, approval cards that say what will happen and answer to the keyboard, and a
retry notice that goes once the retry answered. Also writes the README's first-screen and follow-mode
screenshots (docs/screenshot-welcome.png, docs/screenshot-follow.png)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from agentlite.demo import examples
from tests.e2e.conftest import open_app, send
from tests.e2e.test_demo_scenarios import (
    FINAL,
    RECORD_RETRY_NOTICES,
    card,
    vfs,
    wait_file,
    wait_reply,
    wait_status,
)
from tests.e2e.test_ui_files import dismiss_storage_notice

WAIT_MS = 60_000
DOCS = Path(__file__).resolve().parents[2] / "docs"
LONG = "/notes/long-notes.md"


def welcome_examples(page: Page) -> list[str]:
    return page.locator("[data-testid=welcome-example]").evaluate_all(
        "(els) => els.map((el) => el.dataset.prompt)"
    )


def open_file(page: Page, path: str) -> None:
    page.locator(f"[data-testid=file-item][data-path='{path}'] >> nth=0").click()
    expect(page.locator("[data-testid=file-view]")).to_have_attribute("data-path", path, timeout=WAIT_MS)


def test_first_screen_offers_the_demos_examples_and_goes_with_the_conversation(app: Page) -> None:
    welcome = app.locator("[data-testid=welcome]")
    expect(welcome).to_be_visible()
    expect(welcome).to_contain_text("demo model")
    expect(app.locator("[data-testid=welcome-example]")).to_have_count(len(examples()), timeout=WAIT_MS)
    assert welcome_examples(app) == [e["prompt"] for e in examples()]
    empty_tree = app.locator("[data-testid=files-empty]")
    expect(empty_tree).to_be_visible(timeout=WAIT_MS)
    expect(empty_tree.get_by_role("button", name="New file")).to_be_visible()
    expect(empty_tree.get_by_role("button", name="Import")).to_be_visible()

    app.locator("[data-testid=welcome-example][data-prompt='create a Button component']").click()
    expect(welcome).to_be_hidden()
    wait_reply(app, "Created /src/Button.tsx")
    expect(app.locator("[data-testid=message][data-role=user] .message-body")).to_have_text(
        ["create a Button component"]
    )
    expect(empty_tree).to_be_hidden(timeout=WAIT_MS)

    app.click("[data-testid=chat-tab-new]")
    expect(welcome).to_be_visible()
    app.locator("[data-testid=chat-tab]").first.click()
    expect(welcome).to_be_hidden()


def test_connect_a_model_opens_the_settings_and_the_first_screen_names_the_endpoint(
    page: Page, origin: str
) -> None:
    open_app(page, origin, base_url="http://127.0.0.1:9/v1", model="qwen3")
    welcome = page.locator("[data-testid=welcome]")
    expect(welcome).to_contain_text("qwen3 at 127.0.0.1:9")
    page.click("[data-testid=connect-model]")
    expect(page.locator("dialog.settings")).to_be_visible()
    expect(page.locator("[data-testid=settings-base-url]")).to_have_value("http://127.0.0.1:9/v1")


def test_first_screen_screenshot(app: Page) -> None:
    dismiss_storage_notice(app)
    expect(app.locator("[data-testid=welcome-example]")).to_have_count(len(examples()), timeout=WAIT_MS)
    DOCS.mkdir(exist_ok=True)
    app.screenshot(path=str(DOCS / "screenshot-welcome.png"))


def test_the_editor_follows_a_file_as_it_streams_then_shows_its_diff(app: Page) -> None:
    dismiss_storage_notice(app)
    toggle = app.locator("[data-testid=follow-agent]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    send(app, "write a long file")
    write = card(app, "create_file")
    live = app.locator("[data-testid=follow-live]")
    title = app.locator("[data-testid=follow-view] .follow-title")
    # Mid-stream: the card still streams (pending) while the editor panel names the file and shows its
    # content coming in.
    app.wait_for_function(
        """([live, card, title, path]) => card.dataset.status === 'pending' && live.checkVisibility()
             && live.textContent.split('\\n').length > 12 && title.textContent.includes(path)""",
        arg=[
            live.element_handle(timeout=WAIT_MS),
            write.element_handle(timeout=WAIT_MS),
            title.element_handle(timeout=WAIT_MS),
            LONG,
        ],
        timeout=WAIT_MS,
    )
    expect(write.locator(".tool-summary")).to_have_text(LONG)
    assert live.text_content().startswith("# Long notes")
    DOCS.mkdir(exist_ok=True)
    app.screenshot(path=str(DOCS / "screenshot-follow.png"))
    assert wait_status(app, write, FINAL) == "completed"

    follow = app.locator("[data-testid=follow-view]")
    expect(follow.locator(".follow-title")).to_have_text(f"The agent changed {LONG}", timeout=WAIT_MS)
    expect(follow.locator(".diff-line.add").first).to_have_text(
        re.compile(r"\+# Long notes"), timeout=WAIT_MS
    )
    expect(follow.locator(".revert-hunk")).not_to_have_count(0)
    expect(live).to_be_hidden()
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", LONG, timeout=WAIT_MS)
    expect(view).to_be_visible()

    follow.locator("[data-testid=follow-undo]").click()
    wait_file(app, LONG, None)

    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(follow).to_be_hidden()
    send(app, "create a Button component")
    wait_reply(app, "Created /src/Button.tsx")
    expect(follow).to_be_hidden()
    assert view.get_attribute("data-path") == LONG


def test_the_follow_waits_while_the_user_types(app: Page) -> None:
    vfs(app, "writeText", "/src/App.tsx", "export const title = 'Old';\n")
    open_file(app, "/src/App.tsx")
    app.locator("[data-testid=file-view]").click()
    app.keyboard.press("Control+End")
    app.keyboard.type("// mine\n")
    # Sent without taking the focus from the editor: the user goes on typing while the agent works.
    app.evaluate(
        """() => {
          document.querySelector('[data-testid=chat-input]').value = 'write a long file';
          document.querySelector('[data-testid=chat-send]').click();
        }"""
    )
    waiting = app.locator("[data-testid=follow-waiting]")
    expect(waiting).to_be_visible(timeout=WAIT_MS)
    expect(waiting).to_contain_text("while you type in /src/App.tsx")
    assert wait_status(app, card(app, "create_file"), FINAL) == "completed"
    view = app.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/src/App.tsx")
    expect(app.locator("[data-testid=follow-view]")).to_be_hidden()
    app.keyboard.type("// still mine\n")

    waiting.get_by_role("button", name="Show it now").click()
    expect(view).to_have_attribute("data-path", LONG, timeout=WAIT_MS)
    expect(app.locator("[data-testid=follow-view] .follow-title")).to_have_text(f"The agent changed {LONG}")
    wait_file(app, "/src/App.tsx", "export const title = 'Old';\n// mine\n// still mine\n")


def test_typing_in_the_file_the_agent_edits_keeps_both_changes(app: Page) -> None:
    """The user types in the file while the agent edits it: the typing is saved after the agent's edit,
    merged with it (different lines), and both are in the file's history."""
    source = "export default function App() {\n  return <h1>Old</h1>;\n}\n"
    vfs(app, "writeText", "/src/App.tsx", source)
    open_file(app, "/src/App.tsx")
    app.locator("[data-testid=file-view]").click()
    app.keyboard.press("Control+End")
    app.keyboard.type("/")
    typed = "/"
    app.evaluate(
        """() => {
          document.querySelector('[data-testid=chat-input]').value = "change the title of App.tsx to 'New'";
          document.querySelector('[data-testid=chat-send]').click();
        }"""
    )
    edit = app.locator("[data-testid=tool-card][data-tool=edit_file]")
    deadline = time.monotonic() + WAIT_MS / 1000
    # The user types on while the agent lists, reads and edits: the typing's save waits for a pause.
    while not (edit.count() and edit.first.get_attribute("data-status") in FINAL):
        assert time.monotonic() < deadline, "the agent's edit did not finish"
        app.keyboard.type("/")
        typed += "/"
        app.wait_for_timeout(50)
    assert edit.first.get_attribute("data-status") == "completed"
    app.keyboard.type(" mine\n")
    wait_file(app, "/src/App.tsx", source.replace("Old", "New") + typed + " mine\n")
    authors = [v.get("author") for v in vfs(app, "history", "/src/App.tsx")]
    assert authors[-2:] == ["agent", "user"]


def test_code_from_the_chat_saves_as_a_file_and_applies_to_the_open_file_each_with_undo(app: Page) -> None:
    source = "export const title = 'Old';\n"
    vfs(app, "writeText", "/src/App.tsx", source)
    send(app, "read /src/App.tsx")
    answer = wait_reply(app, "Here is the start of /src/App.tsx")
    block = answer.locator("pre.code-block")
    code = block.locator("code").text_content()
    assert "export const title" in code

    block.locator("[data-testid=code-save]").click()
    path = app.locator("[data-testid=code-save-path]")
    expect(path).to_have_value("/src/App.tsx")
    path.fill("/copies/App.tsx")
    app.click("[data-testid=code-save-confirm]")
    wait_file(app, "/copies/App.tsx", code)
    assert vfs(app, "history", "/copies/App.tsx")[-1]["op"] == "create"
    app.click("[data-testid=code-undo]")
    wait_file(app, "/copies/App.tsx", None)

    expect(block.locator("[data-testid=code-apply]")).to_be_hidden()
    vfs(app, "writeText", "/notes.md", "one\ntwo\n")
    open_file(app, "/notes.md")
    expect(block.locator("[data-testid=code-apply]")).to_be_visible()
    block.locator("[data-testid=code-apply]").click()
    panel = answer.locator(".code-panel")
    expect(panel).to_contain_text("Replace all of /notes.md")
    expect(panel.locator(".diff-line.del")).to_have_count(2)
    assert vfs(app, "readText", "/notes.md") == "one\ntwo\n", "nothing is written before the confirmation"
    app.click("[data-testid=code-apply-confirm]")
    wait_file(app, "/notes.md", code)
    newest = vfs(app, "history", "/notes.md")[-1]
    assert newest["author"] == "user"
    app.click("[data-testid=code-undo]")
    wait_file(app, "/notes.md", "one\ntwo\n")


def test_an_approval_card_says_what_will_happen_and_answers_the_keyboard(app: Page) -> None:
    vfs(app, "writeText", "/src/Button.tsx", "export default function Button() {}\n")
    send(app, "overwrite the button")
    overwrite = card(app, "write_file")
    assert wait_status(app, overwrite, {"awaiting-approval", *FINAL}) == "awaiting-approval"
    expect(overwrite.locator("[data-testid=tool-action]")).to_have_text(
        re.compile(r"^Overwrite /src/Button\.tsx \(\+\d+ −1\)$"), timeout=WAIT_MS
    )
    expect(overwrite.locator(".diff-line.del .diff-text")).to_have_text(
        ["-export default function Button() {}"]
    )
    buttons = [
        overwrite.locator(f"[data-testid={t}]").bounding_box() for t in ("tool-approve", "tool-reject")
    ]
    assert buttons[0] and buttons[1] and buttons[0]["y"] == buttons[1]["y"], (
        "Approve and Reject share one row"
    )
    overwrite.locator("[data-testid=tool-reject]").click()
    assert wait_status(app, overwrite, FINAL) == "rejected"
    expect(app.locator("[data-testid=chat-stop]")).to_be_hidden(timeout=WAIT_MS)

    send(app, "delete /src/Button.tsx")
    delete = card(app, "delete_file")
    assert wait_status(app, delete, {"awaiting-approval", *FINAL}) == "awaiting-approval"
    expect(delete.locator("[data-testid=tool-action]")).to_have_text("Delete /src/Button.tsx")
    # Tab from what comes just before the card (the turn's restore button) reaches the card; Enter approves.
    app.locator("[data-testid=restore-turn]").last.focus()
    app.keyboard.press("Tab")
    assert delete.evaluate("(el) => document.activeElement === el")
    app.keyboard.press("Enter")
    assert wait_status(app, delete, FINAL) == "completed"
    wait_file(app, "/src/Button.tsx", None)


def test_the_retry_notice_goes_once_the_retry_answered(app: Page) -> None:
    app.evaluate(RECORD_RETRY_NOTICES)
    send(app, "rate limit")
    wait_reply(app, "rate limited once")
    seen = app.evaluate("window.__retryNotices")
    assert len(seen) == 1 and seen[0].startswith("Retrying (1/"), seen
    expect(app.locator("[data-testid=retry-notice]")).to_have_count(0)


# For each selector: the relative luminance of its text colour and of the first opaque background behind it.
LUMINANCES = """(selectors) => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const linear = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const lum = ([r, g, b]) => [r, g, b].map((v) => linear(v / 255))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const rgba = parse(getComputedStyle(node).backgroundColor);
      if (rgba.length === 3 || rgba[3] > 0.5) return rgba;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor);
  };
  return Object.fromEntries(selectors.map((s) => {
    const el = document.querySelector(s);
    return [s, el ? [lum(parse(getComputedStyle(el).color)), lum(background(el))] : null];
  }));
}"""
DARK_PANELS = [
    ".topbar",
    ".panel.files",
    "[data-testid=files-empty]",
    ".editor-head",
    "[data-testid=follow-view] .follow-head",
    "[data-testid=follow-view] .diff-line.add",
    ".panel.chat .tabs",
    "[data-testid=message][data-role=user]",
    "[data-testid=message][data-role=assistant]",
    "[data-testid=tool-card]",
    ".composer textarea",
    "dialog.settings",
]


def test_the_dark_scheme_reaches_every_panel(page: Page, origin: str) -> None:
    page.emulate_media(color_scheme="dark")
    open_app(page, origin)
    expect(page.locator("[data-testid=welcome-example]").first).to_be_visible(timeout=WAIT_MS)
    welcome = page.evaluate(LUMINANCES, [".welcome", ".welcome-example"])
    send(page, "write a long file")
    assert wait_status(page, card(page, "create_file"), FINAL) == "completed"
    expect(page.locator("[data-testid=follow-view] .diff-line.add").first).to_be_visible(timeout=WAIT_MS)
    page.click("[data-testid=settings-open]")
    expect(page.locator("dialog.settings")).to_be_visible()
    found = {**welcome, **page.evaluate(LUMINANCES, DARK_PANELS)}
    missing = [s for s, v in found.items() if v is None]
    assert not missing, missing
    light = {
        s: v
        for s, v in found.items()
        if not (v[1] < 0.1 and v[0] > 0.3 and (v[0] + 0.05) / (v[1] + 0.05) >= 4.5)
    }
    assert not light, f"not dark, or text too faint (text, background luminance): {light}"
