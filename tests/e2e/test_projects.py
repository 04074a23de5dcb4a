"""Several projects in one browser, and a project handed on as one file or a link (docs/projects.md,
docs/handoff-format.md): two projects side by side in two tabs, the switcher, a hand-off round trip with and
without a passphrase, a file changed in transit refused by name, a link round trip, and the upgrade of a
workspace stored before projects existed."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import BrowserContext, Page

from tests.e2e.conftest import open_app, pipe_console, send, wait_ready
from tests.e2e.test_ui_settings import open_settings
from tests.e2e.workspace_support import vfs

TIMEOUT = 60_000
DOCS = Path(__file__).resolve().parents[2] / "docs"


def open_project(page: Page, origin: str, name: str) -> Page:
    pipe_console(page)
    page.goto(f"{origin}/index.html?project={quote(name)}")
    wait_ready(page)
    return page


def projects(page: Page) -> dict[str, bool]:
    """{name: active} as the switcher lists them."""
    page.click("[data-testid=project-switcher]")
    items = page.locator("[data-testid=project-item]")
    items.first.wait_for()
    listed = {
        str(item.get_attribute("data-name")): item.get_attribute("data-active") == "true"
        for item in items.all()
    }
    page.click("[data-testid=project-close]")
    return listed


def save_file(page: Page, tmp: Path, passphrase: str = "") -> Path:
    page.click("[data-testid=project-switcher]")
    page.fill("[data-testid=handoff-passphrase]", passphrase)
    with page.expect_download(timeout=TIMEOUT) as info:
        page.click("[data-testid=handoff-save]")
    path = tmp / info.value.suggested_filename
    info.value.save_as(path)
    return path


def offer_file(page: Page, path: Path, passphrase: str = "") -> None:
    """Pick `path` in the projects dialog (the dialog is open)."""
    page.fill("[data-testid=handoff-passphrase]", passphrase)
    page.set_input_files("[data-testid=handoff-open]", str(path))


def accept_offer(page: Page) -> None:
    page.locator("[data-testid=handoff-offer]").wait_for(timeout=TIMEOUT)
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("[data-testid=handoff-accept]")
    wait_for_opened(page)


def wait_for_opened(page: Page) -> None:
    """The new project's page writes the file into its database, then starts again on it (a reload)."""
    page.wait_for_function(
        "() => performance.getEntriesByType('navigation')[0]?.type === 'reload'", timeout=TIMEOUT
    )
    wait_ready(page)


def seed_project(page: Page) -> None:
    for text in ["one\n", "one\ntwo\n"]:
        vfs(page, "writeText", "/notes/log.md", text)
    vfs(page, "writeText", "/src/app.py", "print('hello')\n")
    vfs(page, "writeText", "/AGENTS.md", "Run the tests before you answer.\n")
    send(page, "hello")
    page.locator("[data-testid=message][data-role=assistant][data-state=done]").first.wait_for(
        timeout=TIMEOUT
    )


def assert_same_project(page: Page) -> None:
    assert vfs(page, "readText", "/notes/log.md") == "one\ntwo\n"
    assert vfs(page, "readText", "/src/app.py") == "print('hello')\n"
    assert len(vfs(page, "history", "/notes/log.md")) == 2
    page.locator("[data-testid=message][data-role=user]", has_text="hello").first.wait_for(timeout=TIMEOUT)


def test_two_projects_side_by_side_and_the_switcher(context: BrowserContext, origin: str) -> None:
    first = open_app(context.pages[0] if context.pages else context.new_page(), origin)
    vfs(first, "writeText", "/first.txt", "one")
    second = open_project(context.new_page(), origin, "Second")
    vfs(second, "writeText", "/second.txt", "two")
    assert vfs(second, "readText", "/first.txt") is None
    assert vfs(first, "readText", "/second.txt") is None
    first.reload()
    wait_ready(first)
    assert vfs(first, "readText", "/first.txt") == "one"
    assert projects(second) == {"Second": True, "My project": False}
    second.click("[data-testid=project-switcher]")
    with second.expect_navigation():
        second.click("[data-testid=project-item][data-name='My project'] button")
    wait_ready(second)
    assert vfs(second, "readText", "/first.txt") == "one"
    assert "project=My+project" in second.url or "project=My%20project" in second.url
    second.click("[data-testid=project-switcher]")
    second.fill("[data-testid=project-name]", "Renamed")
    with second.expect_navigation():
        second.click("[data-testid=project-rename]")
    wait_ready(second)
    assert second.inner_text("[data-testid=project-switcher]") == "Renamed"
    assert vfs(second, "readText", "/first.txt") == "one"


def project_overrides(page: Page, name: str) -> dict[str, object]:
    stored = json.loads(page.evaluate("() => localStorage.getItem('agentlite.projects')"))
    found = [p["overrides"] for p in stored["projects"] if p["name"] == name]
    assert found, f"no project {name!r} in the list"
    return dict(found[0])


def review_first_and_run_the_shell_unasked(page: Page) -> None:
    """The project's own settings: a stricter review, a looser approval."""
    open_settings(page)
    page.select_option("[data-testid=settings-changes]", "review")
    page.check("input[name=auto_approve][value=shell]")
    page.click("[data-testid=settings-save]")
    overrides = project_overrides(page, "My project")
    assert overrides["changes"] == "review" and overrides["auto_approve"] == ["shell"]


def test_a_project_file_round_trip_and_a_changed_file_refused(app: Page, tmp_path: Path) -> None:
    seed_project(app)
    review_first_and_run_the_shell_unasked(app)
    path = save_file(app, tmp_path)
    assert path.suffix == ".agentlite"
    offer_file(app, path)
    offer = app.locator("[data-testid=handoff-offer]")
    offer.wait_for(timeout=TIMEOUT)
    assert "3 files" in offer.inner_text()
    assert "Instructions for the agent: /AGENTS.md" in offer.inner_text()  # named before it is opened
    app.screenshot(path=str(DOCS / "screenshot-projects.png"))  # the README's projects picture
    accept_offer(app)
    assert_same_project(app)
    assert "My project (2)" in app.inner_text("[data-testid=project-switcher]")
    # the file's settings travel, but never its approvals nor whether changes are reviewed
    opened = project_overrides(app, "My project (2)")
    assert opened.get("max_rounds") == project_overrides(app, "My project")["max_rounds"]
    assert "auto_approve" not in opened and "changes" not in opened

    changed = tmp_path / "changed.agentlite"
    changed.write_bytes(with_member_changed(path.read_bytes()))
    app.click("[data-testid=project-switcher]")
    offer_file(app, changed)
    problem = app.locator("[data-testid=handoff-problem]")
    problem.wait_for(timeout=TIMEOUT)
    assert CHANGED_MEMBER in problem.inner_text()
    assert app.locator("[data-testid=handoff-offer]").is_hidden()


CHANGED_MEMBER = "stores/entries.jsonl"


def with_member_changed(data: bytes) -> bytes:
    """The same zip with one line of one member altered (a valid zip whose digest no longer matches)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info)
            if info.filename == CHANGED_MEMBER:
                body = body.replace(b"notes", b"nites", 1)
            target.writestr(info.filename, body)
    return out.getvalue()


def test_a_sealed_file_needs_its_passphrase(app: Page, tmp_path: Path) -> None:
    seed_project(app)
    path = save_file(app, tmp_path, passphrase="correct horse battery staple")
    assert not zipfile.is_zipfile(path)
    offer_file(app, path, passphrase="wrong")
    problem = app.locator("[data-testid=handoff-problem]")
    problem.wait_for(timeout=TIMEOUT)
    assert "passphrase" in problem.inner_text().lower()
    offer_file(app, path, passphrase="correct horse battery staple")
    accept_offer(app)
    assert_same_project(app)


def test_a_link_round_trip(app: Page, context: BrowserContext) -> None:
    vfs(app, "writeText", "/small.txt", "small project")
    app.click("[data-testid=project-switcher]")
    app.click("[data-testid=handoff-link]")
    field = app.locator("[data-testid=handoff-link-text]")
    field.wait_for(timeout=TIMEOUT)
    link = field.input_value()
    assert "#handoff=" in link and "handoff=" not in link.split("#")[0]
    other = context.new_page()
    pipe_console(other)
    other.goto(link)
    wait_ready(other)
    assert "#" not in other.url
    accept_offer(other)
    assert vfs(other, "readText", "/small.txt") == "small project"


def test_a_workspace_from_before_projects_is_the_default_project(app: Page) -> None:
    vfs(app, "writeText", "/kept.txt", "kept")
    app.evaluate("() => localStorage.removeItem('agentlite.projects')")  # as before projects existed
    app.goto(app.url.split("?")[0])
    wait_ready(app)
    assert vfs(app, "readText", "/kept.txt") == "kept"
    assert app.inner_text("[data-testid=project-switcher]") == "My project"
    assert json.dumps(projects(app)) == json.dumps({"My project": True})


def test_two_tabs_on_one_project_share_it_and_hear_each_other(context: BrowserContext, origin: str) -> None:
    one = open_project(context.pages[0] if context.pages else context.new_page(), origin, "Shared")
    two = open_project(context.new_page(), origin, "Shared")
    other = open_project(context.new_page(), origin, "Elsewhere")
    vfs(one, "writeText", "/shared.txt", "from tab one")
    # The other tab of the project hears the change on the project's channel and shows it in its tree.
    two.locator("[data-testid=file-item][data-path='/shared.txt']").wait_for(timeout=TIMEOUT)
    vfs(two, "writeText", "/shared.txt", "from tab two")
    # Tab one hears of it on the project's channel and reads the stored change (a moment later).
    one.wait_for_function(
        "() => window.agentlite.vfs.readText('/shared.txt').then((text) => text === 'from tab two')",
        timeout=TIMEOUT,
    )
    assert [h["sha256"] for h in vfs(one, "history", "/shared.txt")] == [
        h["sha256"] for h in vfs(two, "history", "/shared.txt")
    ]
    assert len(vfs(two, "history", "/shared.txt")) == 2  # neither write lost
    assert vfs(other, "readText", "/shared.txt") is None
    assert other.locator("[data-testid=file-item]").count() == 0


def test_a_project_renamed_in_another_tab_is_followed_not_made_again(
    context: BrowserContext, origin: str
) -> None:
    one = open_project(context.pages[0] if context.pages else context.new_page(), origin, "Alpha")
    vfs(one, "writeText", "/alpha.txt", "alpha")
    two = open_project(context.new_page(), origin, "Alpha")
    one.click("[data-testid=project-switcher]")
    one.fill("[data-testid=project-name]", "Beta")
    with one.expect_navigation():
        one.click("[data-testid=project-rename]")
    wait_ready(one)
    two.wait_for_function("() => new URLSearchParams(location.search).get('project') === 'Beta'")
    assert two.inner_text("[data-testid=project-switcher]") == "Beta"
    two.reload()
    wait_ready(two)
    assert vfs(two, "readText", "/alpha.txt") == "alpha"  # the same project, not an empty "Alpha"
    assert "Alpha" not in projects(two)
