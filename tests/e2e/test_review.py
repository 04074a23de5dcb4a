"""Review before keeping (docs/review.md), through the app with `?changes=review`: an agent turn that edits
one file and creates another lands on the chat's stage, not in the workspace; the review panel lists both;
one hunk is kept and the other dropped with the keyboard (the file then holds exactly the kept hunk);
the editor shows a staged file as proposed, with its before / after toggle; Keep all makes the rest real;
and "Request changes" sends the comment, with the hunk it points at, as the chat's next message. Also
writes the README's picture of the panel (docs/screenshot-review.png)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import WAIT_MS, approve_through, messages, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_file
from tests.e2e.test_preview import revision, wait_revision_after
from tests.e2e.test_ui_accessibility import assert_clean
from tests.e2e.test_ui_files import dismiss_storage_notice

DOCS = Path(__file__).resolve().parents[2] / "docs"
BASE = "".join(f"line {n}\n" for n in range(1, 21))
TWO_CHANGES = BASE.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n")
KEPT_FIRST = BASE.replace("line 2\n", "line two\n")
NEW = "fresh\nfile\n"
COMMENT = "Spell the numbers as digits, please."


def panel(page: Page) -> Locator:
    return page.locator("[data-testid=review-panel]")


def review_file(page: Page, path: str) -> Locator:
    return page.locator(f"[data-testid=review-file][data-path='{path}']")


def hunks(page: Page) -> Locator:
    return page.locator("[data-testid=review-panel] [data-testid=review-hunk]")


def staged(page: Page, path: str) -> str | None:
    """`path` as the active chat's stage shows it."""
    text: str | None = vfs(page, "readText", path, {"staged": True})
    return text


def in_review(page: Page, origin: str, server: ModelServer, calls: list[tuple[str, dict[str, Any]]]) -> None:
    """The app in review mode, its model scripted to make `calls` and then say it is done."""
    server.script(Scripted(chunks=tool_call_chunks(*calls)), Scripted(chunks=text_chunks("Proposed.")))
    open_app(page, origin, base_url=server.base_url, model="test-model", dialect="native", changes="review")


def start_staged_turn(page: Page, origin: str, server: ModelServer) -> None:
    """The agent rewrites /notes.txt in two places and creates /new.txt, on the stage."""
    calls = [
        ("write_file", {"path": "/notes.txt", "content": TWO_CHANGES}),
        ("create_file", {"path": "/new.txt", "content": NEW}),
    ]
    in_review(page, origin, server, calls)
    vfs(page, "writeText", "/notes.txt", BASE)
    send(page, "Tidy the notes and add a new file")
    wait_idle(page)
    expect(panel(page)).to_be_visible(timeout=WAIT_MS)


def test_a_staged_turn_is_reviewed_hunk_by_hunk_then_kept(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start_staged_turn(page, origin, model_server)
    dismiss_storage_notice(page)
    assert page.locator("[data-testid=settings-changes]").input_value() == "review"
    expect(review_file(page, "/notes.txt")).to_have_attribute("data-change", "edited")
    expect(review_file(page, "/new.txt")).to_have_attribute("data-change", "created")
    expect(page.locator("[data-testid=review-file][data-state=pending]")).to_have_count(2)
    # Nothing is real yet: the workspace is as it was, the stage shows the change.
    assert vfs(page, "readText", "/notes.txt") == BASE
    assert vfs(page, "readText", "/new.txt") is None
    assert staged(page, "/notes.txt") == TWO_CHANGES
    assert staged(page, "/new.txt") == NEW

    review_file(page, "/notes.txt").locator("button").click()
    expect(hunks(page)).to_have_count(2, timeout=WAIT_MS)
    expect(hunks(page).first).to_be_focused()  # opening a file goes to its first hunk to decide
    page.set_viewport_size({"width": 1440, "height": 960})
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "screenshot-review.png"))
    page.keyboard.press("n")  # to the second hunk
    expect(hunks(page).nth(1)).to_be_focused()
    page.keyboard.press("d")  # drop it: focus goes round to the first, still to decide
    expect(page.locator("[data-testid=review-hunk][data-state=dropped]")).to_have_count(1, timeout=WAIT_MS)
    focused = page.locator("[data-testid=review-hunk]:focus")
    expect(focused).to_have_attribute("data-state", "pending")
    expect(focused).to_contain_text("+line two")
    page.keyboard.press("y")  # keep it
    wait_file(page, "/notes.txt", KEPT_FIRST)
    expect(
        page.locator("[data-testid=review-file][data-path='/notes.txt'][data-state=pending]")
    ).to_have_count(0)
    assert staged(page, "/notes.txt") == KEPT_FIRST

    # The created file, opened in the editor as proposed: read-only, with its before / after toggle.
    review_file(page, "/new.txt").locator("button").click()
    page.locator("[data-testid=review-file-editor]").click()
    view = page.locator("[data-testid=file-view]")
    expect(view).to_have_attribute("data-path", "/new.txt", timeout=WAIT_MS)
    expect(view).to_have_text(NEW, timeout=WAIT_MS)
    expect(view).to_have_attribute("data-readonly", "true")
    expect(page.locator("[data-testid=editor-proposed]")).to_be_visible()
    page.locator("[data-testid=editor-proposed-toggle]").click()
    expect(page.locator("#file-title")).to_contain_text("not in the workspace yet", timeout=WAIT_MS)
    page.locator("[data-testid=editor-proposed-toggle]").click()
    expect(view).to_have_text(NEW, timeout=WAIT_MS)

    page.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/new.txt", NEW)
    expect(panel(page)).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("[data-testid=editor-proposed]")).to_be_hidden()
    assert vfs(page, "readText", "/notes.txt") == KEPT_FIRST


def test_request_changes_sends_the_comment_with_the_hunk(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start_staged_turn(page, origin, model_server)
    model_server.script(Scripted(chunks=text_chunks("I will spell them as digits.")))
    review_file(page, "/notes.txt").locator("button").click()
    expect(hunks(page)).to_have_count(2, timeout=WAIT_MS)
    hunks(page).nth(1).click()  # the comment is on the second hunk
    expect(page.locator(".review-target")).to_have_text("On hunk 2 of 2 in /notes.txt")
    page.locator("[data-testid=review-comment]").fill(COMMENT)
    page.locator("[data-testid=review-request-changes]").click()
    expect(messages(page, "user")).to_have_count(2, timeout=WAIT_MS)
    sent = messages(page, "user").last.inner_text()
    assert COMMENT in sent and "+line eighteen" in sent and "/notes.txt" in sent
    wait_idle(page)
    asked = model_server.completions()[-1].body["messages"]
    last_user = [m for m in asked if m["role"] == "user"][-1]["content"]
    text = last_user if isinstance(last_user, str) else " ".join(str(p.get("text", "")) for p in last_user)
    assert COMMENT in text
    assert "```diff\n--- a/notes.txt\n+++ b/notes.txt\n@@" in text and "+line eighteen" in text
    assert "+line two" not in text  # only the hunk the comment points at
    # The proposal is still there to decide on, the workspace untouched.
    expect(panel(page)).to_be_visible()
    assert vfs(page, "readText", "/notes.txt") == BASE


def test_keep_all_holds_instructions_until_shown_and_the_review_survives_a_reload(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    calls = [
        ("create_file", {"path": "/AGENTS.md", "content": "Always answer in French.\n"}),
        ("create_file", {"path": "/plain.txt", "content": NEW}),
    ]
    in_review(page, origin, model_server, calls)
    send(page, "Add instructions")
    wait_idle(page)
    expect(panel(page)).to_be_visible(timeout=WAIT_MS)
    expect(review_file(page, "/AGENTS.md").locator(".review-flag")).to_have_text("instructions")
    page.reload()
    expect(panel(page)).to_be_visible(timeout=WAIT_MS)  # read again at start
    page.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/plain.txt", NEW)
    expect(page.locator("[data-testid=review-held]")).to_contain_text("/AGENTS.md", timeout=WAIT_MS)
    assert vfs(page, "readText", "/AGENTS.md") is None
    review_file(page, "/AGENTS.md").locator("button").click()  # shown now
    expect(page.locator("[data-testid=review-hunk]")).to_have_count(1, timeout=WAIT_MS)
    page.locator("[data-testid=review-keep-all]").click()
    wait_file(page, "/AGENTS.md", "Always answer in French.\n")
    expect(panel(page)).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("[data-testid=chat-input]")).to_be_focused()


def test_a_file_changed_under_the_proposal_asks_which_to_take(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    start_staged_turn(page, origin, model_server)
    mine = BASE.replace("line 10\n", "line ten\n")
    vfs(page, "writeText", "/notes.txt", mine)  # the user's edit while the proposal waits
    page.locator("[data-testid=chat-tab-new]").click()  # another chat has no proposal
    expect(panel(page)).to_have_count(0, timeout=WAIT_MS)
    page.locator("[data-testid=chat-tab]").first.click()  # back: the review is read again
    expect(review_file(page, "/notes.txt")).to_have_attribute("data-state", "conflict", timeout=WAIT_MS)
    review_file(page, "/notes.txt").locator("button").click()
    conflict = page.locator("[data-testid=review-conflict]")
    expect(conflict).to_be_visible(timeout=WAIT_MS)
    expect(conflict).to_contain_text("line ten")
    expect(conflict).to_contain_text("line eighteen")
    assert vfs(page, "readText", "/notes.txt") == mine  # nothing overwritten until asked
    page.locator("[data-testid=review-take-theirs]").click()
    expect(review_file(page, "/notes.txt")).not_to_have_attribute("data-state", "conflict", timeout=WAIT_MS)
    assert vfs(page, "readText", "/notes.txt") == mine


def test_the_review_and_its_conflict_pass_axe(
    context_factory: Callable[..., Any], origin: str, model_server: ModelServer
) -> None:
    page = context_factory(bypass_csp=True, viewport={"width": 1280, "height": 860}).new_page()
    start_staged_turn(page, origin, model_server)
    review_file(page, "/notes.txt").locator("button").click()
    expect(hunks(page)).to_have_count(2, timeout=WAIT_MS)
    assert_clean(page, "the review panel with a file open")
    vfs(page, "writeText", "/notes.txt", BASE.replace("line 10\n", "line ten\n"))
    expect(page.locator("[data-testid=review-conflict]")).to_be_visible(timeout=WAIT_MS)
    assert_clean(page, "a file in conflict")


def test_the_preview_shows_the_proposal_marked_with_before_and_after(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    calls = [("write_file", {"path": "/index.html", "content": "<h1>Proposed page</h1>\n"})]
    in_review(page, origin, model_server, calls)
    vfs(page, "writeText", "/index.html", "<h1>Kept page</h1>\n")
    send(page, "Change the heading")
    wait_idle(page)
    expect(panel(page)).to_be_visible(timeout=WAIT_MS)
    page.locator("[data-testid=preview-open]").click()
    marker = page.locator("[data-testid=preview-proposed]")
    expect(marker).to_be_visible(timeout=WAIT_MS)
    expect(marker).to_have_attribute("data-showing", "after")
    heading = page.frame_locator("[data-testid=preview-frame]").locator("h1")
    expect(heading).to_have_text("Proposed page", timeout=WAIT_MS)
    before = revision(page)
    page.locator("[data-testid=preview-proposed-toggle]").click()  # the user's toggle reruns the page
    wait_revision_after(page, before)
    expect(marker).to_have_attribute("data-showing", "before")
    expect(heading).to_have_text("Kept page", timeout=WAIT_MS)
    assert vfs(page, "readText", "/index.html") == "<h1>Kept page</h1>\n"


def test_the_agents_preview_page_sees_its_own_stage(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    calls = [
        ("write_file", {"path": "/index.html", "content": "<h1>Proposed page</h1>\n"}),
        ("preview_page", {"path": "/index.html"}),
    ]
    in_review(page, origin, model_server, calls)
    vfs(page, "writeText", "/index.html", "<h1>Kept page</h1>\n")
    send(page, "Change the heading and look at it")
    assert approve_through(page, card(page, "preview_page")) == "completed"  # it runs the page: asked
    wait_idle(page)
    shown = tool_results(model_server)[-1]
    assert "Proposed page" in shown and "Kept page" not in shown
    assert vfs(page, "readText", "/index.html") == "<h1>Kept page</h1>\n"


def test_what_was_dropped_stays_in_the_files_history(
    context_factory: Callable[..., Any], origin: str, model_server: ModelServer
) -> None:
    page = context_factory(bypass_csp=True, viewport={"width": 1280, "height": 860}).new_page()
    start_staged_turn(page, origin, model_server)
    dismiss_storage_notice(page)
    review_file(page, "/notes.txt").locator("button").click()
    expect(hunks(page)).to_have_count(2, timeout=WAIT_MS)
    hunks(page).first.locator("[data-testid=review-hunk-drop]").click()  # "line two" is dropped
    expect(page.locator("[data-testid=review-hunk][data-state=dropped]")).to_have_count(1, timeout=WAIT_MS)
    page.locator("[data-testid=review-keep-all]").click()  # "line eighteen" and the new file are kept
    expect(panel(page)).to_have_count(0, timeout=WAIT_MS)
    assert vfs(page, "readText", "/notes.txt") == BASE.replace("line 18\n", "line eighteen\n")

    page.locator("[data-testid=file-item][data-path='/notes.txt'] >> nth=0").click()
    history = page.locator("[data-testid=history-panel]")
    expect(history.locator("[data-testid=version-item]")).to_have_count(2, timeout=WAIT_MS)
    dropped = history.locator("[data-testid=dropped-item]")
    expect(dropped).to_have_count(1, timeout=WAIT_MS)
    expect(history.locator("[data-testid=dropped-proposals]")).to_be_visible()
    turn = vfs(page, "history", "/notes.txt")[-1]["turn"]  # the kept change's turn proposed it too
    expect(dropped).to_have_attribute("data-turn", turn)
    expect(dropped).to_have_attribute("data-change", "edited")
    expect(dropped).to_contain_text("1 hunk")
    (record,) = vfs(page, "dropped", "/notes.txt")
    assert record["hunks"] == 1 and record["turn"] == turn and "+line two" in record["diff"]
    dropped.focus()  # keyboard alone: the list's one tab stop, chosen with Enter
    page.keyboard.press("Enter")
    expect(dropped).to_have_attribute("aria-selected", "true")
    added = history.locator(".diff-line.add .diff-text")
    expect(added).to_have_text(["+line two"], timeout=WAIT_MS)
    history.locator("[data-testid=version-item][data-version='2']").click()  # back to the kept version
    expect(dropped).to_have_attribute("aria-selected", "false")
    expect(added).to_have_text(["+line eighteen"], timeout=WAIT_MS)
    assert_clean(page, "a file's history with a dropped proposal")


def test_a_narrow_window_counts_what_waits_for_review_on_the_editors_tab(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    calls = [
        ("create_file", {"path": "/one.txt", "content": NEW}),
        ("create_file", {"path": "/two.txt", "content": NEW}),
    ]
    in_review(page, origin, model_server, calls)
    page.set_viewport_size({"width": 600, "height": 900})  # one panel at a time: the chat is shown
    send(page, "Add two files")
    wait_idle(page)
    expect(panel(page)).to_be_hidden()
    editor_tab = page.locator("[data-testid=panel-switch][data-panel=editor]")
    expect(editor_tab.locator("[data-testid=panel-badge]")).to_have_text("2", timeout=WAIT_MS)
    expect(editor_tab).to_have_attribute("aria-label", "Editor, 2 files to review")
    editor_tab.click()
    page.locator("[data-testid=review-keep-all]").click()
    expect(panel(page)).to_have_count(0, timeout=WAIT_MS)
    expect(editor_tab.locator("[data-testid=panel-badge]")).to_have_count(0)
    assert editor_tab.get_attribute("aria-label") is None
