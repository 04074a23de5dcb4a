"""Versions of messages in Chromium on the demo model: edit and resend as a new branch (with the offer to
restore the files), the version switcher across reloads, regenerating the last answer, and chat export
(Markdown, JSON) and import into a new tab."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import send, wait_ready
from tests.e2e.test_demo_scenarios import vfs, wait_file, wait_reply

WAIT_MS = 60_000
MESSAGES = "[data-testid=message]"
USERS = "[data-testid=message][data-role=user]"
ANSWERS = "[data-testid=message][data-role=assistant]"
GREETING = "AgentLite demo model"


def user_texts(page: Page) -> list[str]:
    return [t.strip() for t in page.locator(f"{USERS} .message-body").all_inner_texts()]


def make_button_then_say_hello(page: Page) -> None:
    send(page, "create a Button component")
    wait_reply(page, "Created /src/Button.tsx")
    send(page, "hello")
    wait_reply(page, GREETING)


def test_edit_and_resend_makes_a_branch_that_survives_a_reload(app: Page) -> None:
    make_button_then_say_hello(app)
    assert vfs(app, "readText", "/src/Button.tsx") is not None

    app.locator(USERS).nth(1).locator("[data-testid=message-edit]").click()
    expect(app.locator("[data-testid=chat-input]")).to_have_value("hello")
    expect(app.locator("[data-testid=edit-bar]")).to_have_attribute(
        "data-restore-point", "none", timeout=WAIT_MS
    )
    expect(app.locator("[data-testid=edit-restore-files]")).to_be_hidden()  # no file changed from "hello" on
    app.click("[data-testid=edit-cancel]")
    expect(app.locator("[data-testid=edit-bar]")).to_be_hidden()

    app.locator(USERS).first.locator("[data-testid=message-edit]").click()
    expect(app.locator("[data-testid=chat-input]")).to_have_value("create a Button component")
    offer = app.locator("[data-testid=edit-restore-files]")
    expect(offer).to_be_visible(timeout=WAIT_MS)
    offer.check()
    app.fill("[data-testid=chat-input]", "hello there")
    app.press("[data-testid=chat-input]", "Enter")

    switch = app.locator(USERS).first.locator("[data-testid=branch-switch]")
    expect(switch).to_have_text("2/2", timeout=WAIT_MS)
    expect(switch).to_have_attribute("data-branch", "2")
    expect(switch).to_have_attribute("data-branches", "2")
    wait_reply(app, GREETING)
    assert user_texts(app) == ["hello there"]
    wait_file(app, "/src/Button.tsx", None)  # the files went back to before the edited message

    app.reload()
    wait_ready(app)
    switch = app.locator(USERS).first.locator("[data-testid=branch-switch]")
    expect(switch).to_have_text("2/2", timeout=WAIT_MS)
    assert user_texts(app) == ["hello there"]

    switch.get_by_role("button", name="Previous version").click()
    expect(app.locator(USERS).first.locator("[data-testid=branch-switch]")).to_have_text(
        "1/2", timeout=WAIT_MS
    )
    expect(app.locator(USERS)).to_have_count(2)
    assert user_texts(app) == ["create a Button component", "hello"]
    expect(app.locator(ANSWERS).first.locator("[data-testid=tool-card]")).to_have_attribute(
        "data-status", "completed"
    )

    app.reload()
    wait_ready(app)
    expect(app.locator(USERS).first.locator("[data-testid=branch-switch]")).to_have_text(
        "1/2", timeout=WAIT_MS
    )
    assert user_texts(app) == ["create a Button component", "hello"]


def test_regenerate_answers_again_as_a_new_version_of_the_answer(app: Page) -> None:
    send(app, "hello")
    wait_reply(app, GREETING)
    expect(app.locator("[data-testid=message-regenerate]")).to_have_count(1)
    app.locator("[data-testid=message-regenerate]").click()
    switch = app.locator(f"{ANSWERS} [data-testid=branch-switch]")
    expect(switch).to_have_text("2/2", timeout=WAIT_MS)
    expect(app.locator(USERS)).to_have_count(1)
    expect(app.locator(ANSWERS)).to_have_count(1)
    wait_reply(app, GREETING)
    switch.get_by_role("button", name="Previous version").click()
    expect(app.locator(f"{ANSWERS} [data-testid=branch-switch]")).to_have_text("1/2", timeout=WAIT_MS)
    expect(app.locator(USERS)).to_have_count(1)


def download(page: Page, format: str, folder: Path) -> Path:
    page.click("[data-testid=chat-export]")
    with page.expect_download() as info:
        page.click(f"[data-testid=chat-export-{format}]")
    target = folder / info.value.suggested_filename
    info.value.save_as(target)
    return target


def test_chat_export_to_markdown_and_json_and_import_into_a_new_tab(app: Page, tmp_path: Path) -> None:
    make_button_then_say_hello(app)
    app.locator(USERS).nth(1).locator("[data-testid=message-edit]").click()
    app.fill("[data-testid=chat-input]", "hello again")
    app.press("[data-testid=chat-input]", "Enter")
    expect(app.locator(USERS).nth(1).locator("[data-testid=branch-switch]")).to_have_text(
        "2/2", timeout=WAIT_MS
    )

    markdown = download(app, "markdown", tmp_path).read_text(encoding="utf-8")
    assert markdown.startswith("# create a Button component\n")
    assert "**Tool call** `create_file`" in markdown and "/src/Button.tsx" in markdown
    main, others = markdown.split("## Other branches")
    assert "hello again" in main and GREETING in main
    assert "\nhello\n" in others

    exported = download(app, "json", tmp_path)
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document["format"] == "agentlite-chat"
    assert [m["content"] for m in document["messages"] if m["role"] == "user"] == [
        "create a Button component",
        "hello",
        "hello again",
    ]

    with app.expect_file_chooser() as chooser:
        app.click("[data-testid=chat-import]")
    chooser.value.set_files(str(exported))
    expect(app.locator("[data-testid=chat-tab]")).to_have_count(2, timeout=WAIT_MS)
    expect(app.locator("[data-testid=chat-tab][data-active=true]")).to_contain_text("create a Button")
    shown = app.locator(".message-list:not([hidden])")
    expect(shown.locator(USERS)).to_have_count(2, timeout=WAIT_MS)
    assert [t.strip() for t in shown.locator(f"{USERS} .message-body").all_inner_texts()] == [
        "create a Button component",
        "hello again",
    ]
    expect(shown.locator("[data-testid=tool-card][data-tool=create_file]")).to_have_attribute(
        "data-status", "completed"
    )
    switch = shown.locator(f"{USERS} [data-testid=branch-switch]")
    expect(switch).to_have_text("2/2")
    switch.get_by_role("button", name="Previous version").click()
    expect(shown.locator(USERS).nth(1).locator(".message-body")).to_have_text("hello", timeout=WAIT_MS)

    app.reload()  # the imported chat is saved like any other
    wait_ready(app)
    expect(app.locator("[data-testid=chat-tab]")).to_have_count(2, timeout=WAIT_MS)
    app.locator("[data-testid=chat-tab] .tab-title").nth(1).click()
    shown = app.locator(".message-list:not([hidden])")
    expect(shown.locator(USERS).nth(1).locator(".message-body")).to_have_text("hello", timeout=WAIT_MS)


def test_importing_a_file_that_is_not_a_chat_says_so_and_opens_no_tab(app: Page, tmp_path: Path) -> None:
    wrong = tmp_path / "notes.json"
    wrong.write_text('{"hello": 1}', encoding="utf-8")
    with app.expect_file_chooser() as chooser:
        app.click("[data-testid=chat-import]")
    chooser.value.set_files(str(wrong))
    expect(app.locator(".chat-export-note")).to_contain_text("not an AgentLite chat export", timeout=WAIT_MS)
    expect(app.locator("[data-testid=chat-tab]")).to_have_count(1)


def test_an_imported_chat_shows_markup_as_text_and_runs_no_script(app: Page, tmp_path: Path) -> None:
    attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    document = {
        "format": "agentlite-chat",
        "title": attack,
        "messages": [
            {"role": "user", "id": "u", "content": attack},
            {
                "role": "assistant",
                "id": "a",
                "parent": "u",
                "content": attack,
                "tool_calls": [{"id": "c", "name": attack, "arguments": {"path": attack}}],
            },
            {
                "role": "tool",
                "id": "t",
                "parent": "a",
                "tool_call_id": "c",
                "content": attack,
                "result": {"message": attack},
            },
        ],
        "selected": {},
    }
    crafted = tmp_path / "crafted.json"
    crafted.write_text(json.dumps(document), encoding="utf-8")
    with app.expect_file_chooser() as chooser:
        app.click("[data-testid=chat-import]")
    chooser.value.set_files(str(crafted))
    shown = app.locator(".message-list:not([hidden])")
    expect(shown.locator(USERS)).to_have_count(1, timeout=WAIT_MS)
    expect(shown.locator(f"{USERS} .message-body")).to_have_text(attack)
    expect(shown.locator("[data-testid=tool-card]")).to_have_count(1)
    assert app.evaluate(
        "() => window.__pwned === undefined && !document.querySelector('.messages img[src=x]')"
    )
