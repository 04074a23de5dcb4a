"""The agent's hands on the preview (docs/preview.md, "Hands on the page"), against TodoMVC's vanilla
JavaScript app (tests/fixtures/todomvc-vanillajs, written elsewhere): preview_snapshot reads it as an
accessibility tree, preview_act types a todo, presses Enter and checks it with real DOM events in the
frame, the snapshot then shows it done; the requests the page made read beside its console; an unknown
ref is a clear error for the model."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card
from tests.e2e.test_preview import frame_of, write_files

TODOMVC = Path(__file__).resolve().parents[1] / "fixtures" / "todomvc-vanillajs"
TEXT_SUFFIXES = {".html", ".js", ".css"}
NEW_TODO = "e2"  # the "What needs to be done?" field, the page's second element with a role
TOGGLE = "e14"  # the new todo's checkbox: refs go on in the order the page's elements are first seen


def todomvc_files() -> dict[str, str]:
    """The app's text files as workspace files (its picture is left out of the fixture)."""
    return {
        "/" + str(path.relative_to(TODOMVC)): path.read_text()
        for path in sorted(TODOMVC.rglob("*"))
        if path.suffix in TEXT_SUFFIXES
    }


def calls(*steps: tuple[str, dict[str, object]]) -> list[Scripted]:
    return [Scripted(chunks=tool_call_chunks(step)) for step in steps]


def test_the_agent_adds_a_todo_checks_it_and_reads_the_result(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        *calls(
            ("preview_snapshot", {"path": "/index.html"}),
            ("preview_act", {"ref": NEW_TODO, "action": "type", "value": "buy milk"}),
            ("preview_act", {"ref": NEW_TODO, "action": "press", "value": "Enter"}),
            ("preview_act", {"ref": TOGGLE, "action": "check"}),
            ("preview_snapshot", {"path": "/index.html"}),
            ("preview_act", {"ref": "e999", "action": "click"}),
        ),
        Scripted(chunks=text_chunks("The todo works.")),
    )
    start(page, origin, model_server)
    write_files(page, todomvc_files())
    send(page, "does adding a todo work?")
    for tool, nth in [
        ("preview_snapshot", 0),
        *[("preview_act", n) for n in range(3)],
        ("preview_snapshot", 1),
    ]:
        assert approve_through(page, card(page, tool, nth)) == "completed", (tool, nth)
    assert approve_through(page, card(page, "preview_act", 3)) == "failed"
    wait_idle(page)
    first, typed, entered, checked, again, unknown = tool_results(model_server)
    assert first.startswith("snapshot of /index.html:"), first
    assert f'- textbox "What needs to be done?" [ref={NEW_TODO}]' in first, first
    assert '- checkbox "Mark all as complete"' not in first  # hidden until there is a todo
    assert 'type "buy milk" on e2: done' in typed, typed
    assert f'+ - textbox "What needs to be done?" [focused] [ref={NEW_TODO}]: buy milk' in typed, typed
    assert "press Enter on e2: done" in entered, entered
    assert f"+     - checkbox [ref={TOGGLE}]" in entered and "+     - generic [ref=e15]: buy milk" in entered
    assert '+ - checkbox "Mark all as complete" [ref=e11]' in entered, entered
    assert "+ - generic [ref=e17]: 1 item left" in entered, entered
    assert f"+     - checkbox [checked] [focused] [ref={TOGGLE}]" in checked, checked
    assert "+ - generic [ref=e17]: 0 items left" in checked, checked
    assert f"- checkbox [checked] [ref={TOGGLE}]" in again, again
    assert 'unknown ref "e999"' in unknown, unknown
    frame = frame_of(page)
    assert frame.locator("#todo-list li.completed label").inner_text() == "buy milk"
    assert 'press e2 "Enter"' in card(page, "preview_act", 1).inner_text()


FETCHING = {
    "/index.html": (
        "<!doctype html><title>Loads</title><button id='load'>Load</button><p id='out'>nothing yet</p>"
        "<script src='app.js'></script>"
    ),
    "/app.js": (
        "fetch('config.json').then((r) => console.log('config', r.status));\n"
        "document.getElementById('load').addEventListener('click', async () => {\n"
        "  const r = await fetch('data.json', { method: 'GET' });\n"
        "  document.getElementById('out').textContent = (await r.json()).message;\n"
        "  const x = new XMLHttpRequest(); x.open('POST', '/save'); x.send('1');\n"
        "});\n"
    ),
    "/data.json": '{"message": "loaded 3 rows"}',
}


def test_the_requests_a_page_and_an_action_made_read_beside_the_console(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        *calls(
            ("preview_page", {"path": "/index.html"}),
            ("preview_snapshot", {"path": "/index.html"}),
            ("preview_act", {"ref": "e1", "action": "click"}),
            ("preview_wait", {"text": "loaded 3 rows", "timeout_ms": 2000}),
        ),
        Scripted(chunks=text_chunks("It loads.")),
    )
    start(page, origin, model_server)
    write_files(page, FETCHING)
    send(page, "does loading work?")
    for tool, nth in [("preview_page", 0), ("preview_snapshot", 0), ("preview_act", 0), ("preview_wait", 0)]:
        assert approve_through(page, card(page, tool, nth)) == "completed", (tool, nth)
    wait_idle(page)
    shown, snapshot, clicked, waited = tool_results(model_server)
    assert "--- requests (1) ---\nGET config.json 404" in shown, shown
    assert '- button "Load" [ref=e1]' in snapshot and "- paragraph [ref=e2]: nothing yet" in snapshot, (
        snapshot
    )
    assert "+ - paragraph [ref=e2]: loaded 3 rows" in clicked, clicked
    assert "GET data.json 200" in clicked and "POST /save 405" in clicked, clicked
    assert "config.json" not in clicked  # only what the action caused
    assert waited.startswith("waited ") and '"loaded 3 rows" appeared' in waited, waited


def test_a_click_that_loads_another_page_reports_that_page(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        *calls(
            ("preview_snapshot", {"path": "/index.html"}),
            ("preview_act", {"ref": "e1", "action": "click"}),
        ),
        Scripted(chunks=text_chunks("It links.")),
    )
    start(page, origin, model_server)
    write_files(
        page,
        {
            "/index.html": "<!doctype html><title>A</title><a href='b.html'>Next page</a>",
            "/b.html": "<!doctype html><title>B</title><h1>Page B</h1>",
        },
    )
    send(page, "does the link work?")
    for tool in ("preview_snapshot", "preview_act"):
        assert approve_through(page, card(page, tool)) == "completed", tool
    wait_idle(page)
    _, clicked = tool_results(model_server)
    assert "the page went to /b.html; its snapshot:" in clicked, clicked
    assert '- heading "Page B" [level=1] [ref=e1]' in clicked, clicked
    assert page.get_attribute("[data-testid=preview-frame]", "data-entry") == "/b.html"
