"""The preview's loop guard (docs/preview.md, "Looping pages"): the transform in
web/src/preview/page/loop-guard.js under Node. Every kind of loop gets a check that stops it with its
file:line once the frame says the thread has been held too long; loops that end compute what they
computed before; no line moves."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from buildsys.common import ROOT

RUNNER = ROOT / "tests" / "page" / "loop_guard_runner.mjs"
NEVER = 10**9  # a `due` that never says yes

ENDLESS = {
    "while": "let i = 0;\nwhile (true) {}\n",
    "for": "\nfor (;;) {}\n",
    "do-while": "\ndo {} while (true);\n",
    "no-block body": "let n = 0;\nwhile (true) n++;\n",
    "empty body": "\nfor (;;);\n",
    "in a function": "function spin() {\n  while (1) {}\n}\nspin();\n",
    "in a method": "class A { m() {\n for (;;) {} } }\nnew A().m();\n",
    "for-of over a generator": "function* g() { while (true) yield 1; }\nfor (const x of g()) {}\n",
    "caught inside": "\nwhile (true) { try { for (;;) {} } catch (e) {} }\n",
}

TERMINATING = [
    ("let out = 0;\nfor (let i = 0; i < 10; i++) out += i;", 45),
    ("let out = [];\nfor (const k in {a: 1, b: 2}) out.push(k);", ["a", "b"]),
    ("let out = 0;\nfor (const v of [1, 2, 3]) { if (v === 2) continue; out += v; }", 4),
    ("let out = 0, i = 0;\ndo out += 2; while (++i < 3)", 6),
    (
        "let out = 0;\nouter: for (let i = 0; i < 3; i++)"
        " for (let j = 0; j < 3; j++) { if (j > i) continue outer; out++; }",
        6,
    ),
    ("let out = 0;\nif (out === 0) while (out < 5) out++; else out = -1;", 5),
    ("let out = 0;\nlbl: while (true) { out++; if (out > 2) break lbl; }", 3),
    ("var out = (() => { let s = ''; for (const c of 'abc') s = c + s; return s; })();", "cba"),
]


def guard(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "acorn").exists():
        pytest.fail("node and web/node_modules are needed: run `python build.py`")
    done = subprocess.run(
        [node, str(RUNNER), json.dumps(cases)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def case(code: str, *, run: bool = True, due_after: int = NEVER, **options: Any) -> dict[str, Any]:
    return {"code": code, "path": "/app.js", "module": False, "run": run, "dueAfter": due_after, **options}


@pytest.mark.parametrize("name", sorted(ENDLESS))
def test_an_endless_loop_is_stopped_with_its_file_and_line(name: str) -> None:
    code = ENDLESS[name]
    line = 1 + next(i for i, text in enumerate(code.splitlines()) if "while" in text or "for" in text)
    (answer,) = guard([case(code, due_after=1000)])
    assert answer["thrown"] == {
        "name": "RangeError",
        "message": f"preview stopped a loop that ran for more than 1000 ms at /app.js:{line}",
    }, answer
    assert answer["asked"] > 1000


def test_loops_that_end_compute_what_they_did_and_ask_once_a_turn() -> None:
    answers = guard([case(code) for code, _ in TERMINATING])
    assert [a["value"] for a in answers] == [value for _, value in TERMINATING]
    assert answers[0]["asked"] == 10  # one check per turn of the loop


def test_a_turn_calls_the_check_only_once_the_frames_count_runs_out() -> None:
    (answer,) = guard([case("let out = 0;\nfor (let i = 0; i < 10; i++) out += i;", turns=6)])
    assert (answer["value"], answer["asked"]) == (45, 4)


def test_no_line_moves_and_only_loop_bodies_change() -> None:
    code = (
        "const a = 1;\n\nfor (;;) { break; }\nwhile (a) break\n// for (;;) {} in a comment\nlet s = 'do{}';\n"
    )
    (answer,) = guard([case(code, run=False)])
    guarded: str = answer["guarded"]
    assert len(guarded.splitlines()) == len(code.splitlines())
    changed = [
        i for i, (a, b) in enumerate(zip(code.splitlines(), guarded.splitlines(), strict=True)) if a != b
    ]
    assert changed == [2, 3], guarded
    assert guarded.count("__agentliteLoopDue(") == 2


def test_an_inline_script_counts_lines_from_its_place_in_the_page() -> None:
    (answer,) = guard([case("\n\nwhile (true) {}", path="/index.html", firstLine=7, due_after=3)])
    assert answer["thrown"]["message"].endswith("at /index.html:9")


def test_modules_parse_with_imports_exports_and_top_level_await() -> None:
    code = 'import { a } from "agentlite-ws:/a.js";\nexport const b = a;\nfor await (const x of y) {}\n'
    (answer,) = guard([case(code, module=True, run=False)])
    assert "__agentliteLoopDue(" in answer["guarded"]
    assert answer["guarded"].startswith('import { a } from "agentlite-ws:/a.js";\nexport const b = a;\n')


def test_a_syntax_error_is_reported_not_guessed() -> None:
    broken, as_script = guard([case("while (true) {", run=False), case("import x from 'y';", run=False)])
    assert broken["syntaxError"].startswith("SyntaxError: Unexpected token (1:14)"), broken
    assert "syntaxError" in as_script  # a classic script may not import


def test_a_path_cannot_close_the_inline_script_it_lands_in() -> None:
    (answer,) = guard([case("for (;;) {}", path="/a</script>.html", run=False)])
    assert "</script>" not in answer["guarded"] and "\\u003c/script>" in answer["guarded"]
