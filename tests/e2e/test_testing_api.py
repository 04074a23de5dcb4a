"""window.agentlite (docs/contract.md, testing API) works on the browser's real storage and survives a
reload."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.conftest import wait_ready


def test_vfs_round_trip_and_history(app: Page) -> None:
    vfs = "window.agentlite.vfs"
    app.evaluate(f"{vfs}.writeText('/notes/a.txt', 'hé\\n')")
    assert app.evaluate(f"{vfs}.readText('/notes/a.txt')") == "hé\n"
    assert app.evaluate(f"{vfs}.readText('/notes/missing.txt')") is None
    assert {"path": "/notes/a.txt", "kind": "file"} in app.evaluate(f"{vfs}.list('/notes')")
    app.evaluate(f"{vfs}.writeText('/notes/a.txt', 'second')")
    history = app.evaluate(f"{vfs}.history('/notes/a.txt')")
    assert [h["op"] for h in history] == ["create", "write"]
    for entry in history:
        assert {"version", "op", "size", "sha256", "turn"} <= entry.keys()
    assert history[-1]["size"] == len("second")


def test_files_survive_a_reload(app: Page) -> None:
    app.evaluate("window.agentlite.vfs.writeText('/keep.txt', 'kept')")
    app.reload()
    wait_ready(app)
    assert app.evaluate("window.agentlite.vfs.readText('/keep.txt')") == "kept"
    assert app.locator("[data-testid=file-item][data-path='/keep.txt'][data-kind=file]").count() == 1


def test_url_parameters_prefill_settings(app: Page, origin: str) -> None:
    app.goto(f"{origin}/index.html?base_url=http://127.0.0.1:9/v1&model=qwen3&dialect=json")
    wait_ready(app)
    app.click("[data-testid=settings-open]")
    assert app.input_value("[data-testid=settings-base-url]") == "http://127.0.0.1:9/v1"
    assert app.input_value("[data-testid=settings-model]") == "qwen3"
    assert app.input_value("[data-testid=settings-dialect]") == "json"
    assert app.input_value("[data-testid=settings-api-key]") == ""
