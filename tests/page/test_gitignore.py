"""The page's .gitignore matching (web/src/folders/gitignore.js through folders/folder-rules.js) under
Node: the same answers as the real `git check-ignore` on generated folders and patterns, and a bounded number
of steps for a hostile file (a dozen `**` over a path 60 folders deep froze the page for minutes)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "gitignore_runner.mjs"
NAMES = ["a", "b", "ab", "x.log", "c.txt", ".hid"]
STEPS = ["a", "b", "*", "**", "?", "a*", "*.log", "[ab]", "[!a]*", "x.log", "\\*", "*b", "[a-c]*", ".*"]


def rules_of(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return run_node(RUNNER, cases)


def pattern(chance: random.Random) -> str:
    steps = "/".join(chance.choice(STEPS) for _ in range(chance.randint(1, 3)))
    head = chance.choice(["", "", "/", "!"])
    return head + steps + chance.choice(["", "", "/"])


def folder_tree(chance: random.Random) -> tuple[set[str], set[str]]:
    """Files and folders (relative, no leading slash) where no file is also a folder."""
    files: set[str] = set()
    for _ in range(12):
        parts = [chance.choice(NAMES) for _ in range(chance.randint(1, 4))]
        files.add("/".join(parts))
    folders = {"/".join(f.split("/")[:i]) for f in files for i in range(1, f.count("/") + 1)}
    return files - folders, folders


def git_answers(tmp: Path, gitignores: dict[str, str], files: set[str], folders: set[str]) -> list[bool]:
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    subprocess.run(["git", "init", "-q", str(tmp)], check=True)
    for folder in folders:
        (tmp / folder).mkdir(parents=True, exist_ok=True)
    for file in files:
        (tmp / file).write_text("")
    for folder, text in gitignores.items():
        (tmp / folder.lstrip("/") / ".gitignore").write_text(text)
    asked = sorted(files | folders)
    done = subprocess.run(
        ["git", "-c", "core.ignorecase=false", "check-ignore", "--no-index", "-v", "-n", "--stdin"],
        cwd=tmp,
        input="\n".join(asked) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    said = {}
    for line in done.stdout.splitlines():
        source, path = line.split("\t", 1)
        said[path] = bool(source != "::" and not source.split(":", 2)[2].startswith("!"))
    return [said[path] for path in asked]


def test_the_page_ignores_what_git_ignores(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test")
    chance = random.Random(2024)
    cases, expected = [], []
    for number in range(150):
        files, folders = folder_tree(chance)
        gitignores = {"/": "\n".join(pattern(chance) for _ in range(chance.randint(1, 5))) + "\n"}
        for folder in chance.sample(sorted(folders), k=min(1, len(folders))):
            gitignores["/" + folder] = "\n".join(pattern(chance) for _ in range(2)) + "\n"
        asked = sorted(files | folders)
        expected.append(git_answers(tmp_path / f"case{number}", gitignores, files, folders))
        cases.append({"gitignores": gitignores, "paths": [["/" + path, path in folders] for path in asked]})
    answers = rules_of(cases)
    wrong = [
        (case["gitignores"], path, git)
        for case, answer, want in zip(cases, answers, expected, strict=True)
        for (path, _), mine, git in zip(case["paths"], answer["ignored"], want, strict=True)
        if mine != git
    ]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize(
    ("text", "path", "is_folder", "ignored"),
    [
        ("build/\n", "/build", True, True),
        ("build/\n", "/build", False, False),
        ("build/\n", "/src/build/x.js", False, True),
        ("*.log\n!keep.log\n", "/keep.log", False, False),
        ("/top.txt\n", "/sub/top.txt", False, False),
        ("a/**\n", "/a", True, False),
        ("a/**\n", "/a/b/c", False, True),
        ("a/**/z\n", "/a/z", False, True),
        ("\\#not-a-comment\n", "/#not-a-comment", False, True),
        ("trailing\\ \n", "/trailing ", False, True),
        ("[unclosed\n", "/[unclosed", False, False),
    ],
)
def test_gitignore_lines_as_git_reads_them(text: str, path: str, is_folder: bool, ignored: bool) -> None:
    (answer,) = rules_of([{"gitignores": {"/": text}, "paths": [[path, is_folder]]}])
    assert answer["ignored"] == [ignored]


def test_a_hostile_gitignore_takes_bounded_steps() -> None:
    """A dozen `**` over a path 60 folders deep: a regex made from `a/**/**/.../b` took 12 s with six
    `**` and did not end in minutes with eight (the `ignore` package the page used before)."""
    hostile = ["a" + "/**" * 12 + "/b", "**/a" * 12 + "/b", "**/" * 12 + "*a*a*a*a*a*a*a*a*c"]
    deep = "/a/" + "/".join(["x"] * 60) + "/c" + "a" * 200
    case = {"gitignores": {"/": "\n".join(hostile) + "\n"}, "paths": [[deep, False], [deep, True]]}
    (answer,) = rules_of([case])
    assert answer["ignored"] == [False, False]
    # Each (pattern step, name) pair once, each name match at most tokens × characters.
    assert answer["steps"] < 2_000_000, answer["steps"]
