"""The review's pure helpers (web/src/views/review-diff.js) under Node: the message "Request changes"
sends (the comment, then the hunks it points at as a fenced diff naming the file), a fence that no line of
the diff can close, and where the selection goes after a decision."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "review_request_runner.mjs"
HUNK = {"header": "@@ -1,3 +1,3 @@", "lines": [" one", "-two", "+TWO", " three"]}


def call(fn: str, *args: Any) -> Any:
    (answer,) = run_node(RUNNER, [{"fn": fn, "args": list(args)}])
    assert "error" not in answer, answer
    return answer["value"]


def test_a_comment_on_a_hunk_carries_the_hunk_as_a_fenced_diff_of_its_file() -> None:
    text = call("requestMessage", {"comment": "Keep it lower case.", "path": "/src/a.txt", "hunks": [HUNK]})
    assert text == (
        "Please change your proposal for /src/a.txt: Keep it lower case.\n"
        "\n"
        "The part I mean:\n"
        "\n"
        "```diff\n"
        "--- a/src/a.txt\n"
        "+++ b/src/a.txt\n"
        "@@ -1,3 +1,3 @@\n"
        " one\n"
        "-two\n"
        "+TWO\n"
        " three\n"
        "```"
    )


def test_an_overall_comment_is_the_comment_alone() -> None:
    text = call("requestMessage", {"comment": "  Use tabs everywhere.  ", "path": None, "hunks": []})
    assert text == "Please change your proposal: Use tabs everywhere."


def test_a_created_or_deleted_file_names_dev_null_on_its_empty_side() -> None:
    created = call("hunkPatch", "/new.txt", "created", [HUNK])
    deleted = call("hunkPatch", "/old.txt", "deleted", [HUNK])
    assert created.splitlines()[:2] == ["--- /dev/null", "+++ b/new.txt"]
    assert deleted.splitlines()[:2] == ["--- a/old.txt", "+++ /dev/null"]


def test_an_empty_comment_sends_nothing() -> None:
    assert call("requestMessage", {"comment": " \n ", "path": "/a", "hunks": [HUNK]}) == ""


def test_no_line_of_the_diff_closes_its_fence() -> None:
    hostile = {"header": "@@ -1 +1 @@", "lines": ["-```", "+````js", " ~~~"]}
    text = call("requestMessage", {"comment": "why ``` here", "path": "/r.md", "hunks": [hostile]})
    fence = text.split("\n\n")[-1].splitlines()[0]
    assert fence == "`````diff"
    assert text.endswith("\n`````")
    assert call("fenceFor", "no ticks") == "```"


def test_hostile_hunks_are_refused_as_nothing_not_a_crash() -> None:
    text = call("requestMessage", {"comment": "x", "path": "/a", "hunks": [None, {"lines": "nope"}, 3]})
    assert text == "Please change your proposal for /a: x"


def test_after_a_decision_the_next_pending_item_is_chosen() -> None:
    states = ["kept", "pending", "dropped", "pending"]
    assert call("nextPending", states, 0, 1) == 1
    assert call("nextPending", states, 1, 1) == 3
    assert call("nextPending", states, 3, 1) == 1  # round again
    assert call("nextPending", states, 3, -1) == 1
    assert call("nextPending", ["kept", "dropped"], 0, 1) == -1
    assert call("nextPending", [], 0, 1) == -1


def test_the_next_item_steps_over_any_state_and_stops_at_the_ends() -> None:
    assert call("step", 4, 0, 1) == 1
    assert call("step", 4, 3, 1) == 3
    assert call("step", 4, 0, -1) == 0
    assert call("step", 4, -1, 1) == 0
    assert call("step", 0, -1, 1) == -1
