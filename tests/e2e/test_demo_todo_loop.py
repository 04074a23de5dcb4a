"""The demo's todo loop end to end from the first screen (docs/preview.md, "Hands on the page"): the demo
model writes a todo page, reads it with preview_snapshot, types a todo and presses Enter with preview_act
inside the preview's frame; the first version throws, the demo reads the uncaught error the action caused,
fixes the script, opens the page again and adds the todo — which the page then really shows."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.e2e.scripted_support import approve_through
from tests.e2e.test_demo_scenarios import card, vfs, wait_reply
from tests.e2e.test_preview import frame_of

PROMPT = "build a todo page and check that adding a todo works"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_demo_drives_its_page_sees_it_throw_fixes_it_and_drives_it_again(app: Page) -> None:
    app.locator(f"[data-testid=welcome-example][data-prompt='{PROMPT}']").click()
    for index in range(2):
        assert approve_through(app, card(app, "write_file", index)) == "completed"
    for round_index in range(2):
        assert approve_through(app, card(app, "preview_page", round_index)) == "completed"
        assert approve_through(app, card(app, "preview_snapshot", round_index)) == "completed"
        for act in range(2):
            assert approve_through(app, card(app, "preview_act", round_index * 2 + act)) == "completed"
        if round_index == 0:  # the page threw: the demo fixes the script
            assert approve_through(app, card(app, "edit_file")) == "completed"
    wait_reply(app, 'Adding a todo works after the fix: "Buy milk" is in the list')
    said = app.locator("[data-testid=message][data-role=assistant]").all_inner_texts()
    assert any("Pressing Enter threw:" in text and "TypeError" in text for text in said), [
        t[:300] for t in said
    ]
    assert "#todo-list" in str(vfs(app, "readText", "/todo/app.js"))
    frame = frame_of(app)
    assert frame.locator("#todo-list li").all_inner_texts() == ["Buy milk"]  # the page really shows it
    app.screenshot(path=str(DOCS / "screenshot-hands.png"))  # the README's picture of the agent's hands
