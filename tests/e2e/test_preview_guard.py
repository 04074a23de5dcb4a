"""The preview's loop guard (docs/preview.md, "Looping pages"), in Chromium told it is Firefox (a Firefox
user agent makes `framesShareThread()` true): a page's endless loops, at load, in a click handler, in a
timer and in a chain of awaits, are stopped with their file:line in the console pane; the preview reloads
by itself again; the agent's preview_page asks first only for a page whose loops could not be guarded.
Chromium as itself never loads the guard. Firefox and WebKit themselves: tests/engines."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import FINAL, card, wait_status
from tests.e2e.test_preview import (
    WAIT_MS,
    frame_of,
    logs,
    revision,
    wait_log,
    wait_revision_after,
    write_files,
)
from tests.engines.preview import LOOP_HTML, LOOP_JS

FIREFOX_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0"
STOPPED = "RangeError: preview stopped a loop that ran for more than 1000 ms at "

LOOPING = {"/index.html": LOOP_HTML, "/js/loop.js": LOOP_JS}
FIXED = 'document.getElementById("after").textContent = "loop fixed";\n'

# Code the loop guard never sees (docs/preview.md, "Looping pages"): loops in handler attributes run
# guarded; code made from strings or added at run time is blocked.
HOLES = {
    "/holes.html": (
        "<!doctype html><title>Holes</title>\n"
        '<body onload="for (;;) {}">\n'
        '<img src="x.png" onerror="while (1) {}">\n'
        "<p id='count'>0</p><button id='plus' onclick=\"count++; document.getElementById('count')"
        '.textContent = count">+</button>\n'
        '<a id="js" href="javascript:for(;;){}">js</a><button id="later">later</button><p id="more"></p>\n'
        "<script>\n"
        "var count = 0;\n"
        "function attempt(name, run) {\n"
        "  try { run(); } catch (err) { console.log(name + ': ' + err.name); }\n"
        "}\n"
        'attempt("eval", () => eval("while (1) {}"));\n'
        'attempt("Function", () => new Function("for (;;) {}")());\n'
        'attempt("constructor", () => [].constructor.constructor("for (;;) {}")());\n'
        'setTimeout("while (1) {}");\n'
        'document.getElementById("more").innerHTML = \'<img src="y.png" onerror="while (1) {}">\';\n'
        'document.getElementById("later").setAttribute("onclick", "while (1) {}");\n'
        "</script>\n"
    ),
}
EVAL_OFF = "Blocked: eval/new Function is off in this browser's preview (it could freeze the app)"
INLINE_OFF = "Blocked: code that is not in the page's HTML"


def test_where_frames_share_the_thread_endless_loops_stop_with_their_line(
    context_factory: Any, origin: str
) -> None:
    page = context_factory(user_agent=FIREFOX_UA).new_page()
    open_app(page, origin)
    write_files(page, LOOPING)
    page.click("[data-testid=preview-open]")
    wait_log(page, f"{STOPPED}/js/loop.js:4")
    wait_log(page, f"{STOPPED}/js/loop.js:2")
    wait_log(page, f"Uncaught (in promise) {STOPPED}/js/loop.js:3")  # a chain of microtasks is one task
    frame = frame_of(page)
    frame.click("#spin")
    wait_log(page, f"{STOPPED}/index.html:6")
    stopped = [text for level, text in logs(page) if level == "error"]
    assert len(stopped) == 4 and all(text.startswith("Uncaught ") and STOPPED in text for text in stopped), (
        stopped
    )
    assert ("log", "looping") in logs(page)

    # The preview reloads by itself again.
    before = revision(page)
    write_files(page, {"/js/loop.js": FIXED})
    wait_revision_after(page, before)
    frame_of(page).wait_for_function("document.getElementById('after').textContent === 'loop fixed'")


def test_chromium_as_itself_runs_pages_as_written(page: Page, origin: str) -> None:
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    open_app(page, origin)
    write_files(page, {"/index.html": "<title>A</title><p id='p'></p><script src='a.js'></script>"})
    write_files(
        page,
        {
            "/a.js": "let n = 0;\nfor (let i = 0; i < 3; i++) n++;\n"
            "document.getElementById('p').textContent = n;\n"
        },
    )
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.wait_for_function("document.getElementById('p').textContent === '3'", timeout=WAIT_MS)
    assert not [url for url in asked if "preview-guard" in url]
    assert page.locator(".preview-notice").is_hidden()


def test_where_frames_share_the_thread_the_agent_asks_only_for_an_unguarded_page(
    context_factory: Any, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/a.html"}))),
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/b.html"}))),
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/b.html"}))),
        Scripted(chunks=text_chunks("Done.")),
    )
    page = context_factory(user_agent=FIREFOX_UA).new_page()
    start(page, origin, model_server)
    write_files(
        page,
        {
            "/a.html": "<title>A</title><p>page a</p><script>for (let i = 0; i < 3; i++) {}</script>",
            "/b.html": "<title>B</title><p>page b</p><script src='b.js'></script>",
            "/b.js": "while (true) {\n",
        },
    )
    send(page, "look")
    ask = page.locator(".preview-ask")
    for nth, answer, status in ((0, None, "completed"), (1, "no", "failed"), (2, "yes", "completed")):
        call = card(page, "preview_page", nth)
        wait_status(page, call, {"awaiting-approval"})
        call.locator("[data-testid=tool-approve]").click()
        if answer:
            ask.wait_for(state="visible", timeout=WAIT_MS)
            assert "open /b.html" in ask.inner_text() and "/b.js: Unexpected token (2:0)" in ask.inner_text()
            assert page.locator(".preview-notice").is_visible()
            ask.locator(f"[data-answer={answer}]").click()
        assert wait_status(page, call, FINAL) == status
        assert ask.is_hidden()
    wait_idle(page)
    guarded, declined, shown = tool_results(model_server)
    assert "preview of /a.html: ready" in guarded and "page a" in guarded
    assert "preview of /b.html: declined" in declined and "/b.js: Unexpected token" in declined
    assert "preview of /b.html: ready" in shown and "page b" in shown and "SyntaxError" in shown

    # A change does not run an unguarded page by itself: the frame says why; Reload runs it.
    before = revision(page)
    write_files(page, {"/b.js": "while (true) {\n// still broken\n"})
    page.wait_for_selector("[data-testid=preview-frame][data-state=error]", timeout=WAIT_MS)
    assert "not run: its loops could not be guarded" in page.inner_text(".preview-status")
    page.click("[data-testid=preview-reload]")
    wait_revision_after(page, before + 1)
    frame_of(page)


def test_where_frames_share_the_thread_code_the_guard_cannot_see_is_guarded_or_blocked(
    context_factory: Any, origin: str
) -> None:
    page = context_factory(user_agent=FIREFOX_UA).new_page()
    open_app(page, origin)
    write_files(page, HOLES)
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    wait_log(page, f"{STOPPED}/holes.html:2")  # <body onload>
    wait_log(page, f"{STOPPED}/holes.html:3")  # <img onerror>
    for name in ("eval", "Function", "constructor"):
        wait_log(page, f"{name}: EvalError")
    frame.click("#js")
    frame.click("#later")
    for _ in range(3):
        frame.click("#plus")
    frame.wait_for_function("document.getElementById('count').textContent === '3'", timeout=WAIT_MS)
    wait_log(page, INLINE_OFF)
    page.wait_for_function(
        """([evalOff, inlineOff]) => {
             const lines = document.querySelectorAll('[data-testid=preview-log]');
             const texts = [...lines].map((e) => e.textContent);
             return texts.filter((t) => t === evalOff).length >= 4
               && texts.filter((t) => t.startsWith(inlineOff)).length >= 3;
           }""",
        arg=[EVAL_OFF, INLINE_OFF],
        timeout=WAIT_MS,
    )
    assert page.evaluate("1 + 1") == 2  # the app answers
    stopped = [text for level, text in logs(page) if STOPPED in text]
    assert len(stopped) == 2, stopped
    assert [text for level, text in logs(page)].count(EVAL_OFF) == 4  # each said once


def test_chromium_as_itself_still_allows_eval_and_handlers_added_later(page: Page, origin: str) -> None:
    open_app(page, origin)
    write_files(
        page,
        {
            "/e.html": "<title>E</title><button id='p'>x</button><script>\n"
            "document.getElementById('p').setAttribute('onclick', 'this.textContent = eval(\"6 * 7\")');\n"
            "</script>"
        },
    )
    page.click("[data-testid=preview-open]")
    frame = frame_of(page)
    frame.click("#p")
    frame.wait_for_function("document.getElementById('p').textContent === '42'", timeout=WAIT_MS)
    assert not [text for level, text in logs(page) if text.startswith("Blocked")]
