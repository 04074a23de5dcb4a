"""Names as disks and eyes read them (py/agentlite/workspace/names.py and web/src/folders/names.js): every
spelling of `.git` that git refuses on NTFS and HFS+ (dulwich's checks are the reference), invisible and
bidi characters, and the page's rule agreeing with the worker's on one table."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest
from dulwich.index import validate_path_element_hfs, validate_path_element_ntfs
from hypothesis import given
from hypothesis import strategies as st

from agentlite.workspace import InvalidPath, paths
from agentlite.workspace.names import invisible_in, is_git_dir_name, is_invisible
from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "unit" / "names_runner.mjs"
GIT_SPELLINGS = [
    ".git",
    ".GIT",
    ".Git",
    ".git.",
    ".git ",
    ".git. . ",
    ".git::$INDEX_ALLOCATION",
    "GIT~1",
    "git~1",
    "Git~1.",
    ".g\u200cit",
    ".gi\u200dt",
    "\ufeff.git",
    ".git\u202e",
    ".GI\u206at ",
    "git~1:stream",
]
NOT_GIT = [
    ".gitignore",
    ".github",
    "git",
    ".git2",
    "git~2",
    "x.git",
    ".g it",
    "..git",
    ".gitmodules",
    "git~10",
]
LOOKALIKES = ["AGENTS\u200b.md", "a\u202etxt.exe", "\u2066x", "a\u061cb", "zero\u2060join", "\ufeffbom"]
ALPHABET = [
    ".",
    "g",
    "G",
    "i",
    "I",
    "t",
    "T",
    "~",
    "1",
    " ",
    ":",
    "\u200c",
    "\u202e",
    "\ufeff",
    "a",
    "\\",
    "\u0301",
]


@pytest.mark.parametrize("name", GIT_SPELLINGS)
def test_every_spelling_of_git_is_git(name: str) -> None:
    assert is_git_dir_name(name)
    with pytest.raises(InvalidPath, match="git's own folder"):
        paths.writable(f"/{name}/hooks/pre-commit")


@pytest.mark.parametrize("name", NOT_GIT)
def test_names_that_only_look_near_git_are_fine(name: str) -> None:
    assert not is_git_dir_name(name)
    assert paths.writable(f"/{name}/a") == f"/{name}/a"


@given(st.lists(st.sampled_from(ALPHABET), max_size=12).map("".join))
def test_whatever_git_refuses_on_ntfs_or_hfs_is_refused(name: str) -> None:
    """Git also refuses names of dots and spaces only (a blank or `..` there); the invisible ones go by
    `invisible_in`, the rest by the path rules and the disk mirror's Windows rule."""
    element = name.encode()
    refused = not validate_path_element_ntfs(element) or not validate_path_element_hfs(element)
    blank = not name.rstrip(". ")
    assert is_git_dir_name(name) or invisible_in(name) or blank or not refused, name


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_name_that_can_pose_as_another_is_refused_for_writes(name: str) -> None:
    assert invisible_in(name)
    with pytest.raises(InvalidPath, match="invisible or bidi control character U\\+"):
        paths.writable(f"/docs/{name}")
    assert paths.normalize(f"/docs/{name}") == f"/docs/{name}"  # an existing one is still reachable


def node_rules(names: list[str]) -> list[dict[str, Any]]:
    return run_node(RUNNER, names)


def test_the_page_and_the_worker_agree_on_one_table() -> None:
    chance = random.Random(7)
    table = GIT_SPELLINGS + NOT_GIT + LOOKALIKES
    table += ["".join(chance.choices(ALPHABET, k=chance.randint(1, 9))) for _ in range(3000)]
    answers = node_rules(table)
    mine = [{"git": is_git_dir_name(name), "invisible": invisible_in(name)} for name in table]
    theirs = [{"git": answer["git"], "invisible": answer["invisible"]} for answer in answers]
    assert theirs == mine


def test_the_page_and_the_worker_agree_on_every_code_point() -> None:
    points = [chr(p) for p in range(sys.maxunicode + 1) if not 0xD800 <= p <= 0xDFFF]
    hidden = [char for char in points if is_invisible(char)]
    answers = node_rules(["a" + char for char in hidden] + ["a\u00e9\u4e00\U0001f600", "plain.txt"])
    assert all(answer["invisible"] for answer in answers[:-2]) and not answers[-2]["invisible"]
    node_hidden = node_rules(["".join(points[i : i + 4096]) for i in range(0, len(points), 4096)])
    first = [answer["invisible"] for answer in node_hidden]
    expected = [invisible_in("".join(points[i : i + 4096])) for i in range(0, len(points), 4096)]
    assert first == expected


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("aux.js", True),
        ("AUX", True),
        ("nul.tar.gz", True),
        ("com1", True),
        ("lpt9.txt", True),
        ("a:b", True),
        ("what?", True),
        ("x*", True),
        ('say"hi"', True),
        ("a<b>", True),
        ("pipe|", True),
        ("dot.", True),
        ("space ", True),
        ("auxiliary.js", False),
        ("com10", False),
        ("readme.md", False),
        ("con-fig", False),
    ],
)
def test_names_a_windows_disk_refuses(name: str, refused: bool) -> None:
    (answer,) = node_rules([name])
    assert bool(answer["windows"]) is refused, answer
