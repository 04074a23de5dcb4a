"""Every engine, one browser start each (Firefox ESR, WebKitGTK; Chromium is tests/e2e): the sandbox runs
JS, the shell and Python off the page's thread; a runaway loop in any runtime ends after its timeout
while the page keeps painting, and the next run works; the app starts, the demo answers through the JS
sandbox, the shell runs on the workspace, a change reports the problems it introduced, a folder lands
as one change without what git ignores, a PDF reads as text page by page, the preview shows a page and a
React page and stops a page's endless loops while the app keeps answering, a model in the page loads
from a URL and streams an answer (WebKit: the compat build), and after one visit the app reloads and
works offline. The tests of a module run in order on one browser; the offline test stops the server, the
runaway loops come last of all."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from buildsys.build.serve import StaticServer
from buildsys.common import DIST
from buildsys.testing import llama_server
from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from buildsys.testing.pdf_sample import CJK_TEXT, cjk_pdf, page_lines, sample_pdf
from tests.engines.drivers import EngineTimeout
from tests.engines.folder_import import DONE, FILES, KEPT, SKIPPED, import_folder, imported
from tests.engines.harness import HARNESS, MODEL_PATH, HarnessHandler
from tests.engines.preview import (
    CARD_PIXELS,
    EVAL_OFF,
    FRAME,
    SHOT_PAGE,
    STOPPED,
    TICKER,
    choose,
    error_lines,
    in_frame,
    log_line,
    open_preview,
    shown,
    write,
)
from tests.engines.probe import Probe
from tests.mcp_servers import RunningServer, stateless_server

__all__ = ["stateless_server"]

LOOPS = {
    "js": ("js", {"code": "while (true) {}"}),
    "python": ("python", {"code": "while True: pass", "files": {}}),
    "shell-python": ("shell", {"command": 'python3 -c "while True: pass"', "files": {}}),
}


def test_the_sandbox_runs_js_shell_and_python_in_an_opaque_origin(probe: Probe) -> None:
    probe.open(HARNESS.lstrip("/"))
    probe.wait_for("window.harnessReady === true", 60, "the harness")
    assert probe.ok("sum", "js", {"code": "[1, 2, 3].reduce((a, b) => a + b, 0) * 7"})["value"] == "42"
    dom = "document.body.innerHTML = '<ul><li>a</li><li>b</li></ul>'; document.querySelectorAll('li').length"
    assert probe.ok("dom", "js", {"code": dom})["value"] == "2"
    assert probe.ok("origin", "js", {"code": "origin"})["value"] == '"null"'
    for name, code in {"storage": "localStorage.length", "idb": "indexedDB.open('agentlite')"}.items():
        assert probe.ok(name, "js", {"code": code})["error"] is not None, f"{name} was reachable"
    fetched = probe.ok("fetch", "js", {"code": "await fetch('/index.html')"})
    assert fetched["error"] is not None, "the sandbox reached the network"

    shell = probe.ok(
        "shell", "shell", {"command": "cat a.txt | tr a-z A-Z > b.txt", "files": {"/a.txt": "hi\n"}}
    )
    assert shell["exit_code"] == 0 and shell["changed"] == {"/b.txt": "HI\n"}, shell
    python = probe.ok("python", "python", {"code": "print(6 * 7)", "files": {}}, 60_000)
    assert python["stdout"] == "42\n", python


def test_the_app_starts_and_the_demo_answers_through_the_js_sandbox(probe: Probe) -> None:
    probe.open("index.html")
    probe.wait_ready()
    status, answer = probe.turn("sum of primes below 1000", "browser_js_eval")
    assert status == "completed" and "76127" in answer, answer


LOCAL_STATE = "document.querySelector('[data-testid=local-model]')?.dataset.state"
ACTIVE_CHAT = "document.querySelector('.message-list:not([hidden])')"  # other chats' lists stay in the DOM
# What the page shows of the model and the chat, printed however the test ends.
LOCAL_SEEN = (
    "[document.querySelector('[data-testid=local-model]')?.innerText,"
    " document.querySelector('.local-model-speed')?.textContent,"
    f" [...{ACTIVE_CHAT}.querySelectorAll('[data-testid=message]')].slice(-2)"
    " .map((m) => m.dataset.state + ': ' +"
    " m.innerText.slice(0, 200)), document.querySelector('[data-testid=error-banner]')?.innerText]"
)
LOCAL_LOAD_S = 300.0  # storing ~100 MB in the origin's private file system and starting the engine
LOCAL_ANSWER_S = 600.0  # a few tokens a second in the compat build on a loaded machine


def test_a_model_in_the_page_loads_from_a_url_and_streams_an_answer(probe: Probe) -> None:
    """The model in the page with the build this engine runs (docs/local-model.md): WebKit lacks JSPI and
    Memory64, so wllama takes the compat build; Firefox runs the default one, in the plain-SIMD copy the
    page picks without relaxed SIMD (turned off in the suite's Firefox; Chromium's suite runs the other).
    Early in the module, on a workspace the other tests have not filled; removed at the end, so the tests
    after it talk to the demo model again."""
    if not llama_server.MODEL.exists():
        pytest.skip("the SmolLM2 GGUF file is not installed")
    probe.open("index.html")
    probe.wait_ready()
    if probe.engine.name == "firefox":
        relaxed = probe.value(
            "import(new URL('local-engine.js', location.href).href).then((m) => m.hasRelaxedSimd())"
        )
        assert relaxed is False, "Firefox was to run the plain-SIMD build"
    probe.value("document.querySelector('[data-testid=chat-tab-new]').click() || true")  # the first screen
    probe.wait_for(
        "document.querySelector('[data-testid=welcome]')?.hidden === false", 20, "the first screen"
    )
    probe.value(
        "document.querySelector('[data-testid=welcome] [data-testid=local-model-open]').click() || true"
    )
    probe.value(
        "(() => { const url = document.querySelector('[data-testid=local-model-url]');"
        f" url.value = location.origin + {json.dumps(MODEL_PATH)};"
        " url.dispatchEvent(new Event('input', {bubbles: true}));"
        " document.querySelector('[data-testid=local-model-url-load]').click(); return true; })()"
    )
    state = probe.wait_for(
        f"['ready', 'error'].includes({LOCAL_STATE}) && {LOCAL_STATE}", LOCAL_LOAD_S, "load"
    )
    assert state == "ready", probe.value("document.querySelector('[data-testid=local-model]').innerText")
    probe.value("document.querySelector('[data-testid=local-model-close]').click() || true")
    try:
        answer = local_answer(probe, "Say yes.")
    finally:  # the tests after this one talk to the demo model
        print(f"{probe.engine.name}: {probe.value(LOCAL_SEEN)}")
        probe.value("document.querySelector('[data-testid=local-model-open]').click() || true")
        probe.value("document.querySelector('[data-testid=local-model-remove]').click() || true")
        probe.wait_for(f"{LOCAL_STATE} === 'none'", 60, "the model's removal")
    assert answer.strip(), answer
    print(f"{probe.engine.name}: the model in the page answered {answer.strip()[:60]!r}")


def local_answer(probe: Probe, text: str) -> str:
    probe.send(text)
    last = f"[...{ACTIVE_CHAT}.querySelectorAll('[data-testid=message][data-role=assistant]')].pop()"
    probe.wait_for(f"{last}?.dataset.state === 'streaming'", LOCAL_ANSWER_S, "a streamed answer")
    probe.wait_for(f"{last}?.dataset.state === 'done'", LOCAL_ANSWER_S, "the answer's end")
    return str(probe.value(f"{last}.innerText"))


def test_the_shell_and_python_run_on_the_workspace(probe: Probe) -> None:
    command = "echo engine > shell.txt && python3 -c 'print(6 * 7)' > py.txt"
    with ModelServer() as model:
        model.script(
            Scripted(chunks=tool_call_chunks(("shell_exec", {"command": command}))),
            Scripted(chunks=text_chunks("Shell done.")),
        )
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native")
        probe.wait_ready()
        status, answer = probe.turn("run the shell", "shell_exec", 240)
        assert status == "completed" and "Shell done." in answer, answer
    assert probe.vfs("readText", "/shell.txt") == "engine\n"
    assert probe.vfs("readText", "/py.txt") == "42\n"


def test_a_change_reports_the_problems_it_introduced(probe: Probe) -> None:
    """TypeScript's and Ruff's checkers run in this engine's Workers (docs/problems.md)."""
    files = [("/bad.ts", "export const n: number = 'x';\n"), ("/bad.py", "print(missing)\n")]
    with ModelServer() as model:
        for path, content in files:
            model.script(
                Scripted(chunks=tool_call_chunks(("write_file", {"path": path, "content": content}))),
                Scripted(chunks=text_chunks(f"Wrote {path}.")),
            )
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native")
        probe.wait_ready()
        for path, _ in files:
            status, _answer = probe.turn(f"write {path}", "write_file", 240)
            assert status == "completed", f"{probe.engine.name}: {path} {status}"
        body: dict[str, Any] = model.completions()[-1].body
    results = "\n".join(str(m["content"]) for m in body["messages"] if m["role"] == "tool")
    assert "/bad.ts:1:14 TS2322 " in results, f"{probe.engine.name}: {results}"
    assert "/bad.py:1:7 F821 Undefined name `missing`" in results, f"{probe.engine.name}: {results}"


def test_a_remote_mcp_server_is_added_and_its_tool_called(
    probe: Probe, stateless_server: RunningServer
) -> None:
    tool = "mcp__test_tools_server__add"
    url = json.dumps(stateless_server.url)
    with ModelServer() as model:
        model.script(
            Scripted(chunks=tool_call_chunks((tool, {"a": 20, "b": 22}))),
            Scripted(chunks=text_chunks("Remote done.")),
        )
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native")
        probe.wait_ready()
        probe.value(
            "(() => { document.querySelector('[data-testid=mcp-open]').click();"
            f" document.querySelector('.mcp-add-form [data-testid=mcp-url]').value = {url};"
            " document.querySelector('[data-testid=mcp-add]').click(); return true; })()"
        )
        item = (
            f"[...document.querySelectorAll('[data-testid=mcp-server]')].find((s) => s.dataset.url === {url})"
        )
        state = probe.wait_for(
            f"(() => {{ const s = {item}; return s && s.dataset.state !== 'connecting' &&"
            " [s.dataset.state, s.innerText]; })()",
            60,
            "the server's answer",
        )
        assert state[0] == "connected", state
        status, answer = probe.turn("add remotely", tool, 120)
        assert status == "completed" and "Remote done." in answer, answer
        results = [m["content"] for m in model.completions()[-1].body["messages"] if m["role"] == "tool"]
        assert any("42" in str(result) for result in results), results
    probe.value(
        "document.querySelector('[data-testid=mcp-remove]').click() || true"
    )  # the next tests as before


def test_a_folder_lands_under_the_root_as_one_change_without_what_git_ignores(
    probe: Probe, tmp_path: Path
) -> None:
    if probe.value("document.querySelector('[data-testid=app]')?.dataset.state") != "ready":
        probe.open("index.html")  # run alone; in order the shell test left the app ready
        probe.wait_ready()
    path = import_folder(probe, tmp_path)
    print(f"{probe.engine.name}: the folder went in through the {path}")
    assert imported(probe) == DONE
    for name in KEPT:
        assert probe.vfs("readText", name) == FILES[name[1:]], name
    for name in [*SKIPPED, "/project"]:  # "/project": what a driver gave instead of the folder
        assert probe.vfs("readText", name) is None, name
    turns = {v["turn"] for name in KEPT for v in probe.vfs("history", name)}
    assert len(turns) == 1, turns
    assert probe.value("document.querySelector('[data-testid=import-skipped]').dataset.count") == "3"


# A 6 x 6 RGB PNG (tests/e2e/test_attachments.py makes it): pasted and dropped into the composer.
SMALL_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAYAAAAGCAIAAABvrngfAAAATklEQVR4nA3IIQEAQAgEQZKgCUEINElObgo0cYj1P3LMDDfSaEPGGG"
    "aBBxl0oGDiV+FFFl2omPolXKRoITH6tfiSSy9aZn8dfuTRh445HhmQKp3EGY3kAAAAAElFTkSuQmCC"
)
PASTE_AND_DROP = """(() => {
  const bytes = Uint8Array.from(atob(PNG_DATA), (c) => c.charCodeAt(0));
  const file = (name) => new File([bytes], name, { type: "image/png" });
  const input = document.querySelector("[data-testid=chat-input]");
  const pasted = new DataTransfer();
  pasted.items.add(file("pasted.png"));
  const paste = new Event("paste", { bubbles: true, cancelable: true });
  Object.defineProperty(paste, "clipboardData", { value: pasted });
  input.dispatchEvent(paste);
  const dropped = new DataTransfer();
  dropped.items.add(file("dropped.png"));
  for (const type of ["dragover", "drop"])
    input.dispatchEvent(new DragEvent(type, { dataTransfer: dropped, bubbles: true, cancelable: true }));
  return true;
})()""".replace("PNG_DATA", json.dumps(SMALL_PNG))
READY_CHIPS = (
    "[...document.querySelectorAll('.attachment-tray [data-testid=attachment]')]"
    ".map((c) => c.dataset.name + ':' + c.dataset.state).sort().join(',')"
)


def test_an_image_pasted_and_one_dropped_reach_a_model_that_takes_images(probe: Probe) -> None:
    with ModelServer() as model:
        model.script(Scripted(chunks=text_chunks("Two squares.")))
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native&vision=yes")
        probe.wait_ready()
        probe.value(PASTE_AND_DROP)
        chips = probe.wait_for(
            f"(() => {{ const s = {READY_CHIPS}; return !s.includes(':preparing') && s; }})()",
            60,
            "the chips",
        )
        assert chips == "dropped.png:ready,pasted.png:ready", chips
        probe.value(
            "(() => { const i = document.querySelector('[data-testid=chat-input]'); i.value = 'what?';"
            " document.querySelector('[data-testid=chat-send]').click(); return true; })()"
        )
        probe.wait_for(
            "document.querySelectorAll('[data-role=user] [data-testid=attachment]').length === 2", 30, "sent"
        )
        probe.wait_for("document.querySelector('[data-testid=chat-stop]').hidden", 240, "the answer")
        parts = model.completions()[-1].body["messages"][-1]["content"]
        urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
        assert len(urls) == 2 and all(u.startswith("data:image/") for u in urls), parts


def test_a_pdf_is_read_as_text_page_by_page(probe: Probe) -> None:
    if probe.value("document.querySelector('[data-testid=app]')?.dataset.state") != "ready":
        probe.open("index.html")  # run alone
        probe.wait_ready()
    data = json.dumps(base64.b64encode(sample_pdf(3, lines=3)).decode())
    probe.value(f"(window.agentlite.pdf.read({data}).then((r) => (window.pdfRead = r)), true)")
    result = probe.wait_for("window.pdfRead", 120, "the PDF's text")
    assert result["ok"], f"{probe.engine.name}: {result}"
    assert result["doc"]["pages"] == ["\n".join(page_lines(n, 3)) for n in (1, 2, 3)]


def test_the_preview_shows_a_page_and_a_react_page(probe: Probe) -> None:
    open_preview(probe)
    first = shown(probe, "/index.html")
    assert in_frame(probe, "document.getElementById('data').textContent === 'x,y'", "the fetched JSON")
    text = probe.engine.frame_eval(FRAME, "document.body.innerText")
    assert text.split() == ["Hello", "engines", "sum", "42", "x,y"], text
    assert (
        probe.engine.frame_eval(FRAME, "getComputedStyle(document.querySelector('h1')).color")
        == "rgb(0, 128, 0)"
    )
    log_line(probe, "engine page ready")
    write(probe, {"/lib/add.js": "export const add = (a, b) => a + b + 1;\n"})  # reloads by itself
    shown(probe, "/index.html", first)
    assert in_frame(probe, "document.getElementById('sum').textContent === 'sum 43'", "the reloaded sum")

    choose(probe, "/react.html")
    shown(probe, "/react.html")
    in_frame(probe, "document.getElementById('inc')?.textContent === 'count 0'", "the React button")
    probe.engine.frame_eval(FRAME, "document.getElementById('inc').click() || true")
    in_frame(probe, "document.getElementById('inc').textContent === 'count 1'", "the React state")
    assert not error_lines(probe)


def this_turn(messages: list[dict[str, Any]], asked: str) -> list[dict[str, Any]]:
    """The messages from the last user message holding `asked` on: one turn of a chat that may hold the
    turns of the tests before (the engine suites share one browser)."""

    def says(message: dict[str, Any]) -> bool:
        content = message.get("content")
        texts = [content] if isinstance(content, str) else [p.get("text", "") for p in content or []]
        return message["role"] == "user" and any(asked in str(text) for text in texts)

    start = max(i for i, message in enumerate(messages) if says(message))
    return messages[start:]


def test_preview_page_takes_a_screenshot_a_vision_model_receives(probe: Probe) -> None:
    """html-to-image in the opaque-origin frame: the card's PNG has the page's colours (docs/preview.md,
    "Screenshots"), and the next request carries it as an image_url part."""
    call = ("preview_page", {"path": "/shot.html", "screenshot": True})
    with ModelServer() as model:
        model.script(Scripted(chunks=tool_call_chunks(call)), Scripted(chunks=text_chunks("Pictured.")))
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native&vision=yes")
        probe.wait_ready()
        write(probe, SHOT_PAGE)
        status, answer = probe.turn("picture the page", "preview_page", 240)
        assert status == "completed" and "Pictured." in answer, answer
        body = model.completions()[-1].body
    turn = this_turn(body["messages"], "picture the page")  # the chat may hold earlier tests' turns
    [result] = [m["content"] for m in turn if m["role"] == "tool"]
    assert "screenshot: " in result and ", attached" in result, result
    parts = [p for m in turn if isinstance(m.get("content"), list) for p in m["content"]]
    assert [p["type"] for p in parts if p.get("type") == "image_url"] == ["image_url"]
    shot = probe.value(CARD_PIXELS)
    assert shot["at"][0][:3] == [200, 30, 40] and shot["at"][1][:3] == [10, 120, 200], shot


def test_the_preview_has_no_peer_connection_in_the_page_or_its_frames(probe: Probe) -> None:
    open_preview(probe)
    probe.wait_for(  # the page the panel opened on first, so that it cannot replace the choice
        f"document.querySelector({FRAME!r})?.dataset.state === 'ready'", 60, "the first preview"
    )
    choose(probe, "/rtc.html")
    shown(probe, "/rtc.html")
    line = log_line(probe, "rtc: ")
    print(f"{probe.engine.name}: {line}")
    assert line.startswith("rtc: undefined undefined new:ReferenceError "), line
    assert "blank:function" not in line and "blank-new:made" not in line, line  # no fresh one from a frame
    assert line.endswith("frames:[]"), line  # a srcdoc frame's script did not run


def test_the_preview_stops_endless_loops_while_the_app_answers(probe: Probe) -> None:
    open_preview(probe)
    probe.value(TICKER)
    choose(probe, "/loop.html")
    log_line(probe, f"{STOPPED}/js/loop.js:4")
    log_line(probe, f"{STOPPED}/js/loop.js:2")
    log_line(probe, f"Uncaught (in promise) {STOPPED}/js/loop.js:3")  # a chain of awaits is one task
    shown(probe, "/loop.html")
    probe.engine.frame_eval(FRAME, "document.getElementById('spin').click() || true")
    log_line(probe, f"{STOPPED}/loop.html:6")
    frozen = probe.value("window.frozenMs")
    print(f"{probe.engine.name}: the app's thread was held at most {frozen:.0f} ms by the looping page")
    assert len(error_lines(probe)) == 4, error_lines(probe)

    probe.value(TICKER)
    choose(probe, "/holes.html")
    log_line(probe, f"{STOPPED}/holes.html:2")  # <img onerror="…">, at load
    log_line(probe, EVAL_OFF)
    log_line(probe, "eval: EvalError")
    shown(probe, "/holes.html")
    probe.engine.frame_eval(FRAME, "document.getElementById('plus').click() || true")
    assert in_frame(probe, "document.getElementById('plus').textContent === 'count 1'", "the onclick count")
    frozen = probe.value("window.frozenMs")
    print(f"{probe.engine.name}: the app's thread was held at most {frozen:.0f} ms by the onerror loop")
    assert error_lines(probe).count(EVAL_OFF) == 1, error_lines(probe)

    choose(probe, "/cost.html")
    print(f"{probe.engine.name}: {log_line(probe, 'cost: ')}")
    probe.value(TICKER)
    choose(probe, "/busy.html")
    log_line(probe, "busy done")
    held = probe.value("window.frozenMs")
    print(f"{probe.engine.name}: an unguarded 2000 ms busy loop in the preview held the app {held:.0f} ms")
    probe.value("clearInterval(window.previewTicker) || true")
    choose(probe, "/index.html")  # the next preview works
    shown(probe, "/index.html")
    assert in_frame(
        probe, "document.getElementById('sum').textContent.startsWith('sum 4')", "the next preview"
    )


def test_after_one_visit_the_app_reloads_and_works_offline(served: tuple[Probe, StaticServer]) -> None:
    probe, server = served
    probe.open("index.html")
    probe.wait_ready()
    probe.wait_for(
        "navigator.serviceWorker.ready.then(() => caches.keys())"
        ".then((names) => names.some((n) => n.startsWith('agentlite-build-')))",
        120,
        "the service worker's cache",
    )
    server.__exit__(None, None, None)  # the app's server is gone
    probe.open("index.html")
    probe.wait_ready()
    assert probe.value("navigator.serviceWorker.controller !== null")
    # The host's security headers come from the cache with the file (docs/deploying.md).
    kept = probe.value(
        "fetch('index.html').then((r) => ['x-frame-options', 'referrer-policy'].map((n) => r.headers.get(n)))"
    )
    assert kept == ["DENY", "no-referrer"], f"{probe.engine.name}: {kept}"
    try:
        status, answer = probe.turn("sum of primes below 1000", "browser_js_eval")
    except EngineTimeout as stalled:
        if probe.engine.name == "webkit" and '"State: planning"' in str(stalled):
            # Seen on fresh CI machines (3 runs of 5), never here: the first turn after the offline
            # reload stays in planning. Not explained yet (docs/testing.md, "Known engine failures");
            # everything before the turn is still asserted, and any other failure fails.
            pytest.xfail(f"WebKit: the first turn after the offline reload stayed in planning\n{stalled}")
        raise
    assert status == "completed" and "76127" in answer, answer


def test_offline_a_pdf_is_read_in_its_frame_with_its_character_maps(probe: Probe) -> None:
    # After the offline test: the service worker serves the PDF frame (sandboxed by its header), the
    # reader's files and the character maps a Japanese PDF needs.
    assert probe.value("navigator.serviceWorker.controller !== null")
    data = json.dumps(base64.b64encode(cjk_pdf()).decode())
    probe.value(f"(window.agentlite.pdf.read({data}).then((r) => (window.pdfOffline = r)), true)")
    result = probe.wait_for("window.pdfOffline", 120, "the PDF's text, offline")
    assert result["ok"] and result["doc"]["pages"] == [CJK_TEXT], f"{probe.engine.name}: {result}"


def test_a_runaway_loop_in_any_runtime_ends_and_the_page_keeps_painting(
    served: tuple[Probe, StaticServer],
) -> None:
    # Last: in WebKitGTK a Python loop's Worker keeps spinning after its frame is gone (docs/execution.md),
    # which would slow every later test. Its own server: the offline test stopped the app's.
    with StaticServer(DIST, handler_class=HarnessHandler) as server:
        probe = Probe(served[0].engine, server.origin)
        probe.open(HARNESS.lstrip("/"))
        probe.wait_for("window.harnessReady === true", 60, "the harness")
        runaway_loops(probe)


def runaway_loops(probe: Probe) -> None:
    # Pyodide is up first, so each loop is timed alone.
    probe.ok("warm", "python", {"code": "pass", "files": {}}, 60_000)
    for name, (kind, payload) in LOOPS.items():
        probe.start_run(name, kind, payload, 3000)
        ticks = probe.value("window.ticks")
        probe.wait_for(f"window.ticks > {ticks} + 5", 30, f"painting while the {name} loop runs")
        assert probe.value(f"window.runs[{name!r}]") is None, f"the {name} loop ended too early"
        outcome = probe.outcome(name, 120)
        assert not outcome["ok"] and outcome["type"] == "timeout", (name, outcome)
        if kind == "js":
            assert probe.ok(f"{name}-next", "js", {"code": "6 * 7"})["value"] == "42"
        else:
            after = probe.ok(f"{name}-next", "python", {"code": "print(6 * 7)", "files": {}}, 60_000)
            assert after["stdout"] == "42\n", after
