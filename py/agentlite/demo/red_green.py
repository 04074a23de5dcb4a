"""The demo's "write a function and a test, then run the tests" scenario: the loop of a real session.

It writes a function with a bug and a test for it, runs `pytest` in the shell sandbox (one test
fails), fixes the bug with edit_file and runs pytest again until the tests pass. Every step is a real
tool call; the outcome is read from the tool results, as a model would.
"""

from __future__ import annotations

import re

from agentlite.demo.conversation import Conversation, Result
from agentlite.demo.replies import Step

FUNCTION_PATH = "/calc.py"
TEST_PATH = "/test_calc.py"
BUG = "    return a - b\n"
FIX = "    return a + b\n"
FUNCTION = f'def add(a, b):\n    """The sum of a and b."""\n{BUG}'
TESTS = (
    "from calc import add\n\n\n"
    "def test_add_zero():\n    assert add(0, 0) == 0\n\n\n"
    "def test_add_two_numbers():\n    assert add(2, 3) == 5\n"
)
COUNTS = re.compile(r"\b\d+ (?:passed|failed|error|errors|skipped)\b(?:, \d+ \w+)*")


def run(conv: Conversation) -> Step:
    runs = [r for r in conv.results if r.name == "shell_exec"]
    written = [r for r in conv.results if r.name == "write_file"]
    if not written:
        calls = [
            ("write_file", {"path": FUNCTION_PATH, "content": FUNCTION}),
            ("write_file", {"path": TEST_PATH, "content": TESTS}),
        ]
        return Step(f"I'll write add() in {FUNCTION_PATH} and its tests in {TEST_PATH}.", calls)
    if not all(r.ok for r in written):
        return Step(f"I couldn't write the files: {(next(r for r in written if not r.ok)).first_line}")
    if not runs:
        return _pytest("Now I'll run the tests.")
    last = runs[-1]
    if not _ran(last):
        return Step(f"The tests did not run: {last.first_line}")
    fixed = conv.result("edit_file")
    if "failed" in last.text and fixed is None:
        edit = ("edit_file", {"path": FUNCTION_PATH, "originalCode": BUG, "newCode": FIX})
        return Step(f"{_counts(last)}: add() subtracts instead of adding. Fixing it.", [edit])
    if "failed" in last.text and fixed is not None and len(runs) == 1:
        if not fixed.ok:
            return Step(f"The fix did not apply: {fixed.first_line}")
        return _pytest("Fixed. Running the tests again.")
    if "failed" in last.text:
        return Step(f"The tests still fail ({_counts(last)}); have a look at {FUNCTION_PATH}.")
    return Step(f"All green: {_counts(last)}. add() in {FUNCTION_PATH} now adds, and {TEST_PATH} proves it.")


def _pytest(text: str) -> Step:
    return Step(text, [("shell_exec", {"command": "pytest"})])


def _ran(result: Result) -> bool:
    """Whether pytest ran (passing or failing), not whether the call was refused or broke."""
    return bool(COUNTS.search(result.text))


def _counts(result: Result) -> str:
    found = COUNTS.findall(result.text)
    return found[-1] if found else "no counts"
