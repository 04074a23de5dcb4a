"""Agent Skills in the browser: the files panel lists valid and invalid skills (with the reason), the
demo model finds a skill, loads it and runs its script (the report it writes is undoable), and `/name`
in the composer picks a skill whose SKILL.md then goes with the message."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from agentlite.demo import skill_demo
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_file, wait_reply

DOCS = Path(__file__).resolve().parents[2] / "docs"


def add_example_skill(page: Page) -> None:
    for path, text in skill_demo.EXAMPLE:
        vfs(page, "writeText", path, text)


def item(page: Page, name: str, valid: bool) -> str:
    found = page.locator("[data-testid=skills-list] [data-testid=skill-item]").and_(
        page.locator(f"[data-name='{name}'][data-valid={str(valid).lower()}]")
    )
    expect(found).to_be_visible(timeout=WAIT_MS)
    return found.inner_text()


def test_valid_and_invalid_skills_are_listed_and_follow_changes(app: Page) -> None:
    add_example_skill(app)
    vfs(app, "writeText", "/.claude/skills/Bad_Name/SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\n")
    assert "Counts the words" in item(app, skill_demo.NAME, True)
    assert "lowercase letters" in item(app, "Bad_Name", False)
    vfs(app, "writeText", "/.agents/skills/late/SKILL.md", "---\nname: late\ndescription: Came later.\n---\n")
    assert "Came later." in item(app, "late", True)
    opener = app.locator("[data-testid=skill-item][data-name=late] button")
    opener.focus()
    app.keyboard.press("Enter")
    expect(app.locator("[data-testid=file-view]")).to_have_attribute(
        "data-path", "/.agents/skills/late/SKILL.md", timeout=WAIT_MS
    )


def test_the_demo_finds_loads_and_runs_a_skill_and_the_report_is_undoable(app: Page) -> None:
    add_example_skill(app)
    vfs(app, "writeText", "/notes.md", "three little words\n")
    send(app, "use a skill to write a word report")
    assert approve_through(app, card(app, "load_skill")) == "completed"
    assert approve_through(app, card(app, "shell_exec")) == "completed"
    wait_reply(app, "Done with the skill")
    app.screenshot(path=str(DOCS / "screenshot-skill.png"))  # the README's skill picture
    report = vfs(app, "readText", skill_demo.REPORT)
    assert report and "- /notes.md: 3 words" in report and "Total: 3 words in 1 files." in report
    history = vfs(app, "history", skill_demo.REPORT)
    turn = history[-1]["turn"]
    app.on("dialog", lambda dialog: dialog.accept())
    restore = app.locator(f"[data-testid=restore-turn][data-turn='{turn}']")
    restore.wait_for(timeout=WAIT_MS)
    restore.click()
    wait_file(app, skill_demo.REPORT, None)
    assert vfs(app, "readText", f"{skill_demo.FOLDER}/SKILL.md") == skill_demo.SKILL_MD


def test_slash_offers_skills_and_sends_the_chosen_one(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Following the skill.")))
    start(page, origin, model_server)
    add_example_skill(page)
    item(page, skill_demo.NAME, True)
    field = page.locator("[data-testid=chat-input]")
    field.focus()
    page.keyboard.type("/wo")
    option = page.locator(f"[data-testid=skill-option][data-name={skill_demo.NAME}]")
    expect(option).to_have_attribute("aria-selected", "true", timeout=WAIT_MS)
    expect(field).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(option).to_have_count(0)
    page.keyboard.type("r")
    expect(option).to_be_visible(timeout=WAIT_MS)
    page.keyboard.press("Enter")
    expect(field).to_have_value(f"/{skill_demo.NAME} ")
    page.keyboard.type("on my notes")
    page.keyboard.press("Enter")
    wait_idle(page)
    body = model_server.completions()[-1].body
    texts = [str(m.get("content")) for m in body["messages"]]
    assert any(t.startswith("<skills>") and f"- {skill_demo.NAME}: Counts the words" in t for t in texts)
    user = texts[-1]
    assert f"/{skill_demo.NAME} on my notes" in user and "# Word report" in user
