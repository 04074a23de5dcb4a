"""Problems after every change, in the app: a real TypeScript project (ky) and a real Python project
(itsdangerous), vendored in tests/fixtures/problems. The page's checkers run in its workers; the tool
result carries the problems the change introduced (an importer a renamed export broke included), the
editor lists and marks the open file's, and the tree counts them."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import vfs
from tests.e2e.test_editor_agent import open_in_editor

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "problems"
WAIT_MS = 120_000  # a first check starts the checker: TypeScript's 3.6 MB module and its library


DOCS = Path(__file__).resolve().parents[2] / "docs"


def load(page: Page, project: str, suffixes: tuple[str, ...]) -> list[str]:
    """Write the vendored project's files into the workspace, as `/path` under its own root."""
    root = FIXTURES / project
    paths = []
    for file in sorted(root.rglob("*")):
        if file.is_file() and file.suffix in suffixes:
            path = "/" + file.relative_to(root).as_posix()
            vfs(page, "writeText", path, file.read_text(encoding="utf-8"))
            paths.append(path)
    return paths


def run_tools(page: Page, server: ModelServer, *calls: tuple[str, dict[str, str]]) -> list[str]:
    """One turn per call, each the call and then a word; the result each call gave the model."""
    for call in calls:  # scripted up front: the server answers the last one again once the queue is out
        server.script(Scripted(chunks=tool_call_chunks(call)), Scripted(chunks=text_chunks("Done.")))
    results = []
    for n, (tool, _) in enumerate(calls):
        send(page, f"please {tool}")
        assert approve_through(page, page.locator("[data-testid=tool-card]").nth(n)) == "completed"
        wait_idle(page)
        results.append(tool_results(server)[-1])
    return results


def test_a_renamed_export_reports_its_broken_importers_and_the_ui_counts_them(
    page: Page, origin: str
) -> None:
    with ModelServer() as server:
        start(page, origin, server)
        load(page, "ky", (".ts", ".json"))
        edit = {
            "path": "/source/errors/HTTPError.ts",
            "originalCode": "export class HTTPError",
            "newCode": "export class HttpError",
        }
        (result,) = run_tools(page, server, ("edit_file", edit))
    assert "Problems this change introduced (3):" in result
    for importer, line in (
        ("/source/core/Ky.ts", 1),
        ("/source/index.ts", 72),
        ("/source/utils/type-guards.ts", 2),
    ):
        assert f"{importer}:{line}:9 TS2724 " in result, result
    assert "constants.ts" not in result  # the project's own backlog is not this change's
    chip = page.locator("[data-testid=tool-card][data-tool=edit_file] [data-testid=tool-problems]")
    expect(chip).to_have_attribute("data-introduced", "3", timeout=WAIT_MS)
    ky = page.locator("[data-testid=file-item][data-path='/source/core/Ky.ts'] [data-testid=file-problems]")
    page.locator("[data-testid=file-item][data-path='/source/core'] > .file-row").wait_for(timeout=WAIT_MS)
    expect(ky).to_have_attribute("data-count", "1", timeout=WAIT_MS)
    open_in_editor(page, "/source/core/Ky.ts")
    problems = page.locator("[data-testid=problems]")
    expect(problems).to_have_attribute("data-count", "1", timeout=WAIT_MS)
    expect(problems).to_contain_text("TS2724")
    page.screenshot(path=str(DOCS / "screenshot-problems.png"))  # the README's picture of the problems


def test_a_python_name_error_and_a_syntax_error_come_back_with_the_change(page: Page, origin: str) -> None:
    with ModelServer() as server:
        start(page, origin, server)
        load(page, "itsdangerous", (".py", ".toml"))
        edit = {
            "path": "/src/itsdangerous/encoding.py",
            "originalCode": '    return base64.urlsafe_b64encode(string).rstrip(b"=")',
            "newCode": '    return base64.urlsafe_b64encode(strng).rstrip(b"=")',
        }
        extra = "/src/itsdangerous/extra.py"
        named, broken, fixed = run_tools(
            page,
            server,
            ("edit_file", edit),
            ("create_file", {"path": extra, "content": "def f(:\n"}),
            ("write_file", {"path": extra, "content": "X = 1\n"}),
        )
    assert "/src/itsdangerous/encoding.py:" in named and " F821 Undefined name `strng`" in named, named
    assert "/src/itsdangerous/extra.py:1:" in broken and "invalid-syntax" in broken, broken
    assert "Problems this change fixed" in fixed and "introduced" not in fixed, fixed
    item = page.locator(
        "[data-testid=file-item][data-path='/src/itsdangerous/encoding.py'] [data-testid=file-problems]"
    )
    expect(item).to_have_attribute("data-count", "1", timeout=WAIT_MS)
