"""The demo's "plan: add a footer to index.html" scenario: plan first, then carry the approved plan out.

In Plan mode (its system prompt says so) it lists the workspace and reads the page, changes nothing,
and ends with the plan as a Markdown checklist. Approved, the plan comes back in Agent mode as a message
carrying that checklist: it reads the page again, adds the footer the plan names (in the plan's words,
which the user may have edited) and reports back; the engine ticks the steps as the calls complete.
Asked in Agent mode without a plan, it simply does the same work.
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation
from agentlite.demo.replies import Step

PAGE = "/index.html"
WORDS = "Made with AgentLite"
SAYS = re.compile(r"""footer (?:that )?says ["“]([^"”\n]{1,80})["”]""", re.I)
NUMBERED = re.compile(r"^\s*\d+\t")


def run(conv: Conversation) -> Step:
    path = _page(conv.request)
    return _plan(conv, path) if conv.planning else _carry_out(conv, path)


def _page(request: str) -> str:
    found = re.search(r"(/?[\w./-]*[\w-]\.html?)\b", request)
    path = found.group(1) if found else PAGE
    return path if path.startswith("/") else "/" + path


def _words(request: str) -> str:
    found = SAYS.search(request)
    return found.group(1).strip() if found else WORDS


def _plan(conv: Conversation, path: str) -> Step:
    listing, page = conv.result("list_directory"), conv.result("read_file")
    if listing is None or page is None:
        return Step(
            f"Let me look at the workspace and {path} first. Nothing changes while we plan.",
            [("list_directory", {"path": "/"}), ("read_file", {"path": path})],
        )
    words = _words(conv.request)
    if _closing_line(page.text) is None:
        found = f"There is no {path} with a closing </body> yet, so the plan creates the page."
        steps = [f'Create {path} with a footer that says "{words}"', "Report back"]
    else:
        found = f"{path} ends its body without a footer, so the footer goes just before </body>."
        steps = [
            f"Read {path} to find where the page ends",
            f'Edit {path}: add a footer that says "{words}" before </body>',
            "Report back",
        ]
    plan = "\n".join(f"- [ ] {step}" for step in steps)
    return Step(f"{found} Nothing has changed yet. Here is my plan:\n\n{plan}")


def _closing_line(read: str) -> str | None:
    """The line of a read_file result that closes the body, as it stands in the file."""
    lines = [NUMBERED.sub("", line) for line in read.splitlines() if NUMBERED.match(line)]
    return next((line for line in reversed(lines) if "</body>" in line), None)


def _carry_out(conv: Conversation, path: str) -> Step:
    words, page = _words(conv.request), conv.result("read_file")
    done = conv.result("edit_file") or conv.result("create_file")
    if done is not None:
        if not done.ok:
            return Step(f"The change did not apply: {done.first_line}")
        return Step(f'Done: {path} now has a footer that says "{words}". You can undo it from its history.')
    if page is None:
        return Step(f"Reading {path} first.", [("read_file", {"path": path})])
    line = _closing_line(page.text)
    footer = f"<footer>{words}</footer>"
    if line is None:
        html = f'<!doctype html>\n<html lang="en">\n<body>\n  {footer}\n</body>\n</html>\n'
        return Step(
            f"There is no {path} yet: creating it.", [("create_file", {"path": path, "content": html})]
        )
    indent = re.match(r"\s*", line)
    new = f"{indent.group() if indent else ''}  {footer}\n{line}"
    return Step("Adding the footer.", [("edit_file", {"path": path, "originalCode": line, "newCode": new})])
