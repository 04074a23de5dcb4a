"""The demo's "build a todo page and check that adding a todo works" scenario: build → drive → see → fix.

It writes a small todo page whose first version has a bug (its script looks for the list under the wrong
id), opens it, reads it as an accessibility tree (preview_snapshot), types a todo and presses Enter
(preview_act) — and the page throws. It reads the uncaught error the action caused, fixes the script with
edit_file, opens the page again and drives it again: the todo is in the list. Every step is a real tool
call and the outcome is read from the tool results, as a model would.
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation, Result
from agentlite.demo.replies import Step

PAGE_PATH = "/todo/index.html"
SCRIPT_PATH = "/todo/app.js"
TODO = "Buy milk"
HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Todos</title>
</head>
<body>
  <main>
    <h1>Todos</h1>
    <form id="new-todo">
      <label>New todo <input name="text" autocomplete="off"></label>
      <button type="submit">Add</button>
    </form>
    <ul id="todo-list" aria-label="Todos"></ul>
  </main>
  <script type="module" src="app.js"></script>
</body>
</html>
"""
BUG = 'const list = document.querySelector("#todos");\n'
FIX = 'const list = document.querySelector("#todo-list");\n'
SCRIPT = f"""const form = document.querySelector("#new-todo");
{BUG}
form.addEventListener("submit", (event) => {{
  event.preventDefault();
  const text = form.elements.text.value.trim();
  if (!text) return;
  const item = document.createElement("li");
  item.textContent = text;
  list.append(item);
  form.reset();
}});
"""
TEXTBOX = re.compile(r'- textbox "New todo"[^\n]*\[ref=(e\d+)\]')
ERRORS = re.compile(r"--- uncaught errors \((\d+)\) ---\n([^\n]*)")
ADDED = re.compile(rf"^\+ +- listitem[^\n]*{re.escape(TODO)}", re.M)


def run(conv: Conversation) -> Step:
    written = [r for r in conv.results if r.name == "write_file"]
    if not written:
        calls = [
            ("write_file", {"path": PAGE_PATH, "content": HTML}),
            ("write_file", {"path": SCRIPT_PATH, "content": SCRIPT}),
        ]
        return Step("I'll write a small todo page: the page and its script.", calls)
    if not all(r.ok for r in written):
        return Step(f"I couldn't write the page: {(next(r for r in written if not r.ok)).first_line}")
    fixed = conv.result("edit_file")
    rounds = _rounds(conv.results)
    if not rounds[-1]:
        return _open(
            "Let's open it and read it the way a screen reader would."
            if fixed is None
            else "Opening the fixed page again."
        )
    return _drive(rounds[-1], fixed, len(rounds))


def _rounds(results: list[Result]) -> list[list[Result]]:
    """The preview steps before the fix, and after it (a second list once edit_file ran)."""
    rounds: list[list[Result]] = [[]]
    for result in results:
        if result.name == "edit_file":
            rounds.append([])
        elif result.name.startswith("preview_"):
            rounds[-1].append(result)
    return rounds


def _open(text: str) -> Step:
    return Step(text, [("preview_page", {"path": PAGE_PATH}), ("preview_snapshot", {"path": PAGE_PATH})])


def _drive(steps: list[Result], fixed: Result | None, round_number: int) -> Step:
    snapshot = next((r for r in steps if r.name == "preview_snapshot"), None)
    acts = [r for r in steps if r.name == "preview_act"]
    if snapshot is None or not snapshot.ok:
        return Step(f"I could not read the page: {(snapshot or steps[-1]).first_line}")
    box = TEXTBOX.search(snapshot.text)
    if box is None:
        return Step('The page has no "New todo" field I can type into; see the Preview panel.')
    if not acts:
        ref = box.group(1)
        calls = [
            ("preview_act", {"ref": ref, "action": "type", "value": TODO}),
            ("preview_act", {"ref": ref, "action": "press", "value": "Enter"}),
        ]
        return Step(f'The field is {ref}. Typing "{TODO}" and pressing Enter, as you would.', calls)
    return _verdict(acts[-1], fixed, round_number)


def _verdict(entered: Result, fixed: Result | None, round_number: int) -> Step:
    if not entered.ok:
        return Step(f"The page did not take the key: {entered.first_line}")
    error = ERRORS.search(entered.text)
    if error and round_number == 1:
        edit = ("edit_file", {"path": SCRIPT_PATH, "originalCode": BUG, "newCode": FIX})
        return Step(
            f"Pressing Enter threw: {error.group(2).strip()}. The script looks for the list as #todos, "
            "but the page calls it #todo-list. Fixing the selector.",
            [edit],
        )
    if fixed is not None and not fixed.ok:
        return Step(f"The fix did not apply: {fixed.first_line}")
    if error:
        return Step(f"It still throws: {error.group(2).strip()}. Have a look at {SCRIPT_PATH}.")
    if ADDED.search(entered.text):
        again = " after the fix" if round_number > 1 else ""
        return Step(f'Adding a todo works{again}: "{TODO}" is in the list and the page threw nothing.')
    return Step(f'Enter threw nothing, but "{TODO}" did not show up in the list; see the Preview panel.')
