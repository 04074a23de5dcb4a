"""The problems checker's TypeScript project (web/src/problems/worker/ts-project.js) under Node, with the
pinned TypeScript: a change answers its own problems and its importers', before and after."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "ts_project_runner.mjs"
LIB = 'export function greet(name: string): string {\n  return "hi " + name;\n}\n'
USER = 'import { greet } from "./lib";\nexport const a: string = greet("a");\n'
APP = 'import React from "react";\nexport const App = () => <div className="x">{String(1)}</div>;\n'


def jobs(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return run_node(RUNNER, list(items))


def codes(answer: dict[str, Any], path: str) -> list[str]:
    return [row[2] for row in answer.get("problems", answer)[path]]


def test_a_renamed_export_breaks_its_importer_in_the_same_answer() -> None:
    files = {"/src/lib.ts": LIB, "/src/a.ts": USER, "/src/b.ts": USER.replace('"a"', '"b"')}
    renamed = LIB.replace("greet", "welcome")
    _, change = jobs(
        {"mode": "sync", "files": files},
        {"mode": "change", "files": {"/src/lib.ts": renamed}, "check": ["/src/lib.ts"]},
    )
    assert change["before"] == {"/src/lib.ts": [], "/src/a.ts": [], "/src/b.ts": []}
    assert codes(change["problems"], "/src/a.ts") == ["TS2724"] or codes(change["problems"], "/src/a.ts") == [
        "TS2305"
    ]
    line, col, _, message = change["problems"]["/src/b.ts"][0]
    assert (line, col) == (1, 10) and "greet" in message
    assert change["problems"]["/src/lib.ts"] == []


def test_a_type_error_and_a_syntax_error_are_found() -> None:
    (answer,) = jobs(
        {
            "mode": "check",
            "files": {"/x.ts": "const n: number = 'no';\n", "/y.ts": "let = ;\n"},
            "check": ["/x.ts", "/y.ts"],
        }
    )
    assert codes(answer["problems"], "/x.ts") == ["TS2322"]
    assert "TS1109" in codes(answer, "/y.ts")  # "Expression expected."


def test_a_react_project_without_its_types_is_not_drowned() -> None:
    (answer,) = jobs({"mode": "check", "files": {"/src/App.tsx": APP}, "check": ["/src/App.tsx"]})
    assert answer["problems"]["/src/App.tsx"] == []


def test_the_projects_tsconfig_is_honoured() -> None:
    source = "export function f(x) { return x; }\n"
    loose = '{ "compilerOptions": { "strict": false } }'
    (strict,) = jobs({"mode": "check", "files": {"/f.ts": source}, "check": ["/f.ts"]})
    assert codes(strict["problems"], "/f.ts") == ["TS7006"]  # TypeScript 6's default is strict
    _, checked = jobs(
        {"mode": "sync", "files": {"/f.ts": source, "/tsconfig.json": loose}},
        {"mode": "check", "check": ["/f.ts"]},
    )
    assert checked["problems"]["/f.ts"] == []


def test_a_created_file_clears_the_import_that_missed_it_and_a_deleted_one_breaks_it() -> None:
    files = {"/m.ts": 'import { v } from "./n";\nexport const w = v;\n'}
    _, created, deleted = jobs(
        {"mode": "sync", "files": files},
        {"mode": "change", "files": {"/n.ts": "export const v = 1;\n"}, "check": ["/n.ts"]},
        {"mode": "change", "deleted": ["/n.ts"], "check": []},
    )
    assert codes(created["before"], "/m.ts") == ["TS2307"]
    assert created["problems"]["/m.ts"] == []
    assert codes(deleted["problems"], "/m.ts") == ["TS2307"]
