"""The problems a change introduced or fixed: pure, line shifts are not changes, order is stable."""

from __future__ import annotations

from agentlite.problems.problem import Problem, parse_problems
from agentlite.problems.problem_diff import diff, render


def p(path: str, line: int, code: str = "F821", message: str = "Undefined name `x`", col: int = 1) -> Problem:
    return Problem(path, line, col, code, message)


def test_nothing_changed_is_empty() -> None:
    before = {"/a.py": [p("/a.py", 3)]}
    result = diff(before, {"/a.py": [p("/a.py", 3)]})
    assert result.introduced == () and result.fixed == ()
    assert render(result) == ""


def test_new_problem_is_introduced_and_a_gone_one_fixed() -> None:
    before = {"/a.py": [p("/a.py", 3)]}
    after = {"/a.py": [p("/a.py", 9, "E999", "SyntaxError: bad")]}
    result = diff(before, after)
    assert result.introduced == (p("/a.py", 9, "E999", "SyntaxError: bad"),)
    assert result.fixed == (p("/a.py", 3),)


def test_a_problem_that_only_moved_lines_is_not_reported() -> None:
    before = {"/a.ts": [p("/a.ts", 3, "TS2304", "Cannot find name 'x'.")]}
    after = {"/a.ts": [p("/a.ts", 5, "TS2304", "Cannot find name 'x'.")]}
    assert diff(before, after).introduced == ()
    assert diff(before, after).fixed == ()


def test_a_second_copy_of_the_same_problem_is_introduced() -> None:
    before = {"/a.py": [p("/a.py", 3)]}
    after = {"/a.py": [p("/a.py", 3), p("/a.py", 7)]}
    assert diff(before, after).introduced == (p("/a.py", 7),)


def test_files_only_in_after_or_before_count_and_order_is_stable() -> None:
    after = {"/z.ts": [p("/z.ts", 2, "TS1")], "/b.ts": [p("/b.ts", 9, "TS1"), p("/b.ts", 1, "TS1")]}
    result = diff({"/gone.py": [p("/gone.py", 1)]}, after)
    assert [(x.path, x.line) for x in result.introduced] == [("/b.ts", 1), ("/b.ts", 9), ("/z.ts", 2)]
    assert result.fixed == (p("/gone.py", 1),)


def test_render_caps_and_says_how_many_were_left_out() -> None:
    after = {"/a.py": [p("/a.py", n) for n in range(1, 31)]}
    text = render(diff({}, after), cap=5)
    lines = text.splitlines()
    assert lines[0] == "Problems this change introduced (30):"
    assert lines[1] == "/a.py:1:1 F821 Undefined name `x`"
    assert len([line for line in lines if line.startswith("/a.py")]) == 5
    assert "25 more" in lines[6]


def test_render_lists_fixed_after_introduced() -> None:
    text = render(diff({"/a.py": [p("/a.py", 3)]}, {"/a.py": [p("/a.py", 4, "E999", "bad")]}))
    assert text.splitlines() == [
        "Problems this change introduced (1):",
        "/a.py:4:1 E999 bad",
        "Problems this change fixed (1):",
        "/a.py:3:1 F821 Undefined name `x`",
    ]


def test_parse_refuses_hostile_rows_without_crashing() -> None:
    raw = {
        "/a.py": [[3, 1, "F821", "Undefined name `x`"], ["x", 1, "F", "m"], [1], "junk", [2, 2, 5, None]],
        "b": "not a list",
        5: [[1, 1, "X", "y"]],
    }
    parsed = parse_problems(raw)
    assert parsed == {"/a.py": [p("/a.py", 3)]}


def test_parse_cuts_long_messages_to_one_line() -> None:
    parsed = parse_problems({"/a.ts": [[1, 1, "TS1", "first line\nsecond" + "x" * 900]]})
    message = parsed["/a.ts"][0].message
    assert "\n" not in message and len(message) <= 300
