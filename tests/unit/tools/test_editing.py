"""edit_file: one block or several, each reported; applied blocks kept; failures show the candidate lines."""

from __future__ import annotations

from agentlite.tools.editing import EditArgs, excerpt, similar_lines
from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import TURN, call, context_with

APP = """import React from "react";

export default function App() {
  return <h1>Old</h1>;
}

export function Footer() {
  return <p>Old</p>;
}
"""


async def test_one_block_is_replaced_and_recorded_as_an_edit() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(
        context, "edit_file", path="src/App.tsx", originalCode="<h1>Old</h1>", newCode="<h1>New</h1>"
    )
    assert result.ok
    assert result.message == "Edited /src/App.tsx (version 2).\nreplaced at line 4"
    assert result.data["applied"] == 1 and result.data["failed"] == 0 and result.data["version"] == 2
    assert "<h1>New</h1>" in (await context.workspace.read_text("/src/App.tsx") or "")
    version = (await context.workspace.history("/src/App.tsx"))[-1]
    assert (version["op"], version["turn"], version["author"]) == ("edit", TURN, "agent")


async def test_file_write_alias_and_other_spellings() -> None:
    context = await context_with({"a.py": "x = 1\n"})
    result = await call(context, "file_write", path="a.py", original_code="x = 1", new_code="x = 2")
    assert result.ok
    result = await call(context, "edit_file", file_path="a.py", old_string="x = 2", new_string="x = 3")
    assert result.ok
    assert await context.workspace.read_text("a.py") == "x = 3\n"


async def test_several_blocks_each_reported() -> None:
    context = await context_with({"src/App.tsx": APP})
    edits = [
        {"originalCode": "<h1>Old</h1>", "newCode": "<h1>New</h1>"},
        {"originalCode": "<p>Old</p>", "newCode": "<p>New</p>"},
    ]
    result = await call(context, "edit_file", path="src/App.tsx", edits=edits)
    assert result.ok
    assert result.message.splitlines()[1:] == ["block 1: replaced at line 4", "block 2: replaced at line 8"]
    assert [b["status"] for b in result.data["blocks"]] == ["applied", "applied"]
    assert len(await context.workspace.history("/src/App.tsx")) == 2  # one version for the whole call


async def test_applied_blocks_are_kept_when_another_fails() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(
        context,
        "edit_file",
        path="src/App.tsx",
        originalCode="<h1>Old</h1>",
        newCode="<h1>New</h1>",
        edits=[{"originalCode": "return <p>Gone</p>;", "newCode": "x"}],
    )
    assert result.ok
    assert result.message.startswith("Partly edited /src/App.tsx (version 2): 1 of 2 blocks applied and kept")
    assert "block 2: NOT FOUND" in result.message
    assert result.data["failed"] == 1
    assert "<h1>New</h1>" in (await context.workspace.read_text("/src/App.tsx") or "")


async def test_ambiguous_block_shows_the_candidate_lines() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(context, "edit_file", path="src/App.tsx", originalCode="Old", newCode="New")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert result.message.startswith("No change to /src/App.tsx: the block did not apply.")
    assert "AMBIGUOUS: originalCode matches 2 places (lines 4, 8)" in result.message
    assert ">    4\t  return <h1>Old</h1>;" in result.message
    assert ">    8\t  return <p>Old</p>;" in result.message
    assert "     3\texport default function App() {" in result.message
    assert result.data["applied"] == 0
    assert await context.workspace.read_text("/src/App.tsx") == APP


async def test_not_found_block_shows_look_alike_lines_and_never_empties_the_file() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(
        context,
        "edit_file",
        path="src/App.tsx",
        originalCode="export default function App() {\n  return <h2>Old</h2>;",
        newCode="",
    )
    assert result.error_type == ToolErrorType.NOT_FOUND
    assert "NOT FOUND" in result.message and "Lines that look like its first line: 3" in result.message
    assert ">    3\texport default function App() {" in result.message
    assert await context.workspace.read_text("/src/App.tsx") == APP


async def test_not_found_without_look_alikes_shows_the_most_similar_lines() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(
        context, "edit_file", path="src/App.tsx", originalCode="export function Fotter() {", newCode=""
    )
    assert "lines most like its first line" in result.message
    assert ">    7\texport function Footer() {" in result.message


async def test_missing_file_suggests_near_paths_and_create_file() -> None:
    context = await context_with({"src/App.tsx": APP})
    result = await call(context, "edit_file", path="src/app.tsx", originalCode="a", newCode="b")
    assert result.error_type == ToolErrorType.NOT_FOUND
    assert "/src/App.tsx" in result.message and "create_file" in result.message


async def test_unchanged_edit_and_binary_file() -> None:
    context = await context_with({"a.txt": "same\n", "b.bin": b"\x00\x01"})
    result = await call(context, "edit_file", path="a.txt", originalCode="same", newCode="same")
    assert result.ok and "unchanged" in result.message
    result = await call(context, "edit_file", path="b.bin", originalCode="a", newCode="b")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "binary" in result.message


async def test_missing_fields_and_bad_blocks_are_named() -> None:
    context = await context_with({"a.txt": "x\n"})
    result = await call(context, "edit_file", path="a.txt", newCode="y")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "`originalCode`" in result.message
    result = await call(
        context, "edit_file", path="a.txt", originalCode="x", newCode="y", edits=[{"newCode": "z"}]
    )
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and result.message.startswith("edits:")
    assert await context.workspace.read_text("a.txt") == "x\n"


def test_edits_alone_fill_the_first_block() -> None:
    blocks = [{"originalCode": "1", "newCode": "2"}, {"originalCode": "3", "newCode": "4"}]
    args = EditArgs.model_validate({"path": "a", "edits": blocks})
    assert (args.originalCode, args.newCode) == ("1", "2")
    assert args.edits == [{"originalCode": "3", "newCode": "4"}]


def test_excerpt_merges_neighbouring_candidates() -> None:
    lines = ["a", "b", "c", "d", "e", "f", "g"]
    assert excerpt(lines, [2, 3]).split("\n") == ["     1\ta", ">    2\tb", ">    3\tc", "     4\td"]
    assert excerpt(lines, [1, 7]).split("\n") == [">    1\ta", "     2\tb", "--", "     6\tf", ">    7\tg"]
    assert similar_lines(lines, "") == []


async def test_writes_to_gits_folder_or_a_posing_name_are_refused_with_a_clear_error() -> None:
    context = await context_with({"README.md": "hi\n"})
    for path in [
        "/.GIT/hooks/pre-commit",
        "/.git./hooks/x",
        "GIT~1/config",
        "AGENTS\u200b.md",
        "a\u202etxt.exe",
    ]:
        result = await call(context, "create_file", path=path, content="#!/bin/sh\n")
        assert not result.ok and result.error_type == ToolErrorType.INVALID_ARGUMENT, (path, result)
        assert "git's own folder" in result.message or "invisible or bidi control" in result.message
        assert await context.workspace.read_text(path) is None
    moved = await call(context, "move_file", source="README.md", destination="/.Git/README.md")
    assert not moved.ok and "git's own folder" in moved.message
    assert await context.workspace.read_text("/README.md") == "hi\n"
