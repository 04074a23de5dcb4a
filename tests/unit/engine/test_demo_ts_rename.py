"""The demo's TypeScript rename: it renames an export, reads in the edit's own result which importers the
rename broke (the problems the page's checkers report), fixes exactly those, and ends with a clean
check_problems — in every dialect. The checker here is a small stand-in that reads the files as the
TypeScript checker would for this one case (an import of a name the module does not export)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agentlite.demo import ts_rename
from agentlite.page_jobs import ScriptedSandbox
from agentlite.stream.decoder import DIALECTS
from tests.unit.engine.test_demo import finished, run_demo, text_of

PROMPT = "rename a TypeScript function"
IMPORT = re.compile(r'^import \{ (\w+) \} from "\./money";', re.M)
EXPORT = re.compile(r"^export function (\w+)\(", re.M)


class Checker:
    """Holds what the agent sent, answers the problems of every file it holds (before and after)."""

    def __init__(self, skip: str = "") -> None:
        self.files: dict[str, str] = {}
        self.skip = skip  # an importer whose problem is never reported

    def problems(self) -> dict[str, list[list[Any]]]:
        exported = set(EXPORT.findall(self.files.get(ts_rename.MODULE, "")))
        found: dict[str, list[list[Any]]] = {}
        for path, text in self.files.items():
            rows = []
            for name in IMPORT.findall(text):
                if name not in exported and path != self.skip:
                    message = f"Module '\"./money\"' has no exported member '{name}'."
                    rows.append([1, 10, "TS2305", message])
            found[path] = rows
        return found

    def __call__(self, kind: str, payload: dict[str, Any], _timeout_ms: int) -> dict[str, Any]:
        assert kind == "problems"
        before = self.problems()
        self.files.update(payload["files"])
        for path in payload["deleted"]:
            self.files.pop(path, None)
        return {"session": "s1", "before": before, "problems": self.problems()}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_rename_fixes_the_importers_its_own_problems_name(dialect: str) -> None:
    events, _ = run_demo(PROMPT, ScriptedSandbox(Checker()), dialect, problems=True)
    assert finished(events) == [
        *[("write_file", "completed")] * 3,
        ("edit_file", "completed"),
        ("edit_file", "completed"),
        ("edit_file", "completed"),
        ("check_problems", "completed"),
    ]
    text = text_of(events)
    assert "The rename broke 2 importer(s), by its own problems: /shop/cart.ts, /shop/receipt.ts" in text
    assert "Done: total() is sumPrices() now" in text and "No problems" in text


def test_only_the_importers_the_problems_name_are_touched() -> None:
    events, _ = run_demo(PROMPT, ScriptedSandbox(Checker(skip="/shop/receipt.ts")), "native", problems=True)
    text = text_of(events)
    assert "The rename broke 1 importer(s), by its own problems: /shop/cart.ts." in text
    assert [call for call in finished(events) if call[0] == "edit_file"] == [("edit_file", "completed")] * 2
