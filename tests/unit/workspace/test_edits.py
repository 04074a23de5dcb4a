"""Edit blocks: applied / not found / ambiguous, partial application, tolerant matching."""

from __future__ import annotations

import pytest

from agentlite.workspace import EditBlock, InvalidArgument, NotFound
from agentlite.workspace.edits import apply_blocks, apply_one
from tests.unit.workspace.helpers import aio, open_workspace

CODE = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


def test_unique_block_is_applied() -> None:
    text, result = apply_one("a = 1\nb = 2\n", EditBlock("b = 2", "b = 3"))
    assert text == "a = 1\nb = 3\n"
    assert (result.status, result.line) == ("applied", 2)


def test_ambiguous_block_lists_candidate_lines() -> None:
    text, result = apply_one(CODE, EditBlock("    return 1", "    return 2"))
    assert text == CODE
    assert result.status == "ambiguous"
    assert result.candidates == (2, 6)
    assert "2 places" in result.message and "lines 2, 6" in result.message


def test_missing_block_points_at_look_alikes() -> None:
    text, result = apply_one(CODE, EditBlock("def g():\n    return 7", "x"))
    assert text == CODE
    assert result.status == "not_found"
    assert result.candidates == (5,)
    assert "Read the file again" in result.message


def test_several_blocks_keep_the_applied_ones() -> None:
    blocks = [
        EditBlock("def f():\n    return 1", "def f():\n    return 10"),
        EditBlock("nothing like this", "x"),
        EditBlock("def g():\n    return 1", "def g():\n    return 20"),
        EditBlock("return", "x"),
    ]
    text, results = apply_blocks(CODE, blocks)
    assert [r.status for r in results] == ["applied", "not_found", "applied", "ambiguous"]
    assert text == "def f():\n    return 10\n\n\ndef g():\n    return 20\n"


def test_blocks_apply_in_sequence() -> None:
    text, results = apply_blocks("x\n", [EditBlock("x", "y"), EditBlock("y", "z")])
    assert text == "z\n" and [r.status for r in results] == ["applied", "applied"]


def test_crlf_files_match_lf_blocks() -> None:
    text, result = apply_one("a\r\nb\r\nc\r\n", EditBlock("a\nb\n", "A\nB\n"))
    assert result.status == "applied" and "CRLF" in result.message
    assert text == "A\r\nB\r\nc\r\n"


def test_trailing_whitespace_is_tolerated() -> None:
    text, result = apply_one("x = 1   \ny = 2\n", EditBlock("x = 1\ny = 2", "x = 3\ny = 4"))
    assert result.status == "applied" and "trailing whitespace" in result.message
    assert text == "x = 3\ny = 4\n"


def test_indentation_is_tolerated_and_new_code_reindented() -> None:
    source = "class A:\n    def f(self):\n        return 1\n"
    block = EditBlock("def f(self):\n    return 1", "def f(self):\n    return 2")
    text, result = apply_one(source, block)
    assert result.status == "applied" and "indentation" in result.message
    assert text == "class A:\n    def f(self):\n        return 2\n"


def test_removing_whole_lines_leaves_no_blank_line() -> None:
    text, result = apply_one("a  \nb\nc\n", EditBlock("a\nb", ""))
    assert result.status == "applied"
    assert text == "c\n"


def test_empty_original() -> None:
    assert apply_one("", EditBlock("", "new"))[0] == "new"
    text, result = apply_one("full", EditBlock("", "new"))
    assert text == "full" and result.status == "not_found"


@pytest.mark.parametrize(
    "block",
    [{"originalCode": "a", "newCode": "b"}, {"original": "a", "new": "b"}, ("a", "b"), EditBlock("a", "b")],
)
def test_block_coercion(block: object) -> None:
    assert EditBlock.coerce(block) == EditBlock("a", "b")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [{"originalCode": "a"}, ("a",), "ab", {"originalCode": 1, "newCode": "x"}])
def test_bad_blocks(bad: object) -> None:
    with pytest.raises(InvalidArgument):
        EditBlock.coerce(bad)  # type: ignore[arg-type]


@aio
async def test_workspace_edit_records_one_version_and_a_diff() -> None:
    ws = await open_workspace()
    await ws.write("/m.py", CODE)
    result = await ws.edit(
        "/m.py",
        blocks=[
            {"originalCode": "def f():\n    return 1", "newCode": "def f():\n    return 3"},
            {"originalCode": "missing", "newCode": "x"},
        ],
        turn="t1",
        author="agent",
    )
    assert result.applied == 1
    assert result.change is not None and result.change.versions[0].op == "edit"
    assert "-    return 1\n+    return 3\n" in result.diff
    assert result.to_dict()["version"] == 2
    assert [b["status"] for b in result.to_dict()["blocks"]] == ["applied", "not_found"]


@aio
async def test_workspace_edit_that_applies_nothing_changes_nothing() -> None:
    ws = await open_workspace()
    await ws.write("/m.py", CODE)
    result = await ws.edit("/m.py", "return 1", "return 2")
    assert result.change is None and result.applied == 0
    assert await ws.read_text("/m.py") == CODE
    assert len(await ws.history("/m.py")) == 1


@aio
async def test_workspace_edit_rejections() -> None:
    ws = await open_workspace()
    with pytest.raises(NotFound):
        await ws.edit("/nope.py", "a", "b")
    await ws.write("/m.py", CODE)
    with pytest.raises(InvalidArgument):
        await ws.edit("/m.py")
    with pytest.raises(InvalidArgument):
        await ws.edit("/m.py", blocks=[])
