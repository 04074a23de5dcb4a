"""The demo's "make a small web page" scenario: build → run → see.

It writes a page of three files (HTML, CSS and a module script), opens it with preview_page (with a
screenshot, which the tool card shows) and reads what the preview reports (title, visible text,
console, uncaught errors), as a model checking its own work would. Every step is a real tool call;
the answer is taken from the tool's result.
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation, Result
from agentlite.demo.replies import Step

PAGE_PATH = "/index.html"
TITLE = "Click counter"
HTML = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{TITLE}</title>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <main>
    <h1>{TITLE}</h1>
    <button id="count" type="button">Clicked 0 times</button>
  </main>
  <script type="module" src="app.js"></script>
</body>
</html>
"""
CSS = """body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 90vh; }
button { font-size: 1.2rem; padding: 0.6rem 1.2rem; border-radius: 0.5rem; cursor: pointer; }
"""
SCRIPT = """const button = document.querySelector("#count");
let clicks = 0;
button.addEventListener("click", () => {
  clicks += 1;
  button.textContent = `Clicked ${clicks} time${clicks === 1 ? "" : "s"}`;
});
console.log("counter ready");
"""
FILES = (("/index.html", HTML), ("/style.css", CSS), ("/app.js", SCRIPT))
READY = re.compile(r"^preview of \S+: ready$", re.M)  # the first line of preview_page's report
ERRORS = re.compile(r"--- uncaught errors \((\d+)\) ---")
PICTURED = re.compile(r"^screenshot: \d+x\d+ PNG", re.M)


def run(conv: Conversation) -> Step:
    written = [r for r in conv.results if r.name == "write_file"]
    if not written:
        calls = [("write_file", {"path": path, "content": text}) for path, text in FILES]
        return Step("I'll write a small click counter: a page, its stylesheet and a module script.", calls)
    if not all(r.ok for r in written):
        return Step(f"I couldn't write the page: {(next(r for r in written if not r.ok)).first_line}")
    shown = conv.result("preview_page")
    if shown is None:
        return Step("Now let's see it run.", [("preview_page", {"path": PAGE_PATH, "screenshot": True})])
    return _verdict(shown)


def _verdict(shown: Result) -> Step:
    if not shown.ok or not READY.search(shown.text):  # the native dialect marks only refusals as not ok
        return Step(f"The preview did not open the page: {shown.first_line}")
    errors = ERRORS.search(shown.text)
    if errors:
        return Step(
            f"The page runs but reports {errors.group(1)} uncaught error(s); see the Preview console."
        )
    title = "with its title" if f"title: {TITLE}" in shown.text else "but its title is not the one I wrote"
    button = "the button is there" if "Clicked 0 times" in shown.text else "the button text is missing"
    picture = " Its picture is on the preview_page card." if PICTURED.search(shown.text) else ""
    return Step(
        f"The page is up in the Preview panel {title}, {button}, and the console has no errors."
        f"{picture} Click the button to count; any edit to the files reloads the preview."
    )
