"""The snapshot's pure parts (tools/page_snapshot.py): a tree cut to its budget with a note of what was
cut, the change an action made as lines removed and added, and the page's requests as lines."""

from __future__ import annotations

from agentlite.tools.page_snapshot import cut_snapshot, requests_text, snapshot_diff

TREE = [
    "- banner:",
    '  - heading "todos" [level=1] [ref=e1]',
    '  - textbox "What needs to be done?" [focused] [ref=e2]',
    "- list [ref=e3]:",
    "  - listitem [ref=e4]:",
    "    - checkbox [ref=e5]",
    "    - generic [ref=e6]: buy milk",
]


def test_a_tree_within_its_budget_is_kept_whole() -> None:
    assert cut_snapshot(TREE, max_lines=50, max_chars=5_000) == "\n".join(TREE)


def test_a_tree_over_its_line_budget_is_cut_with_a_note() -> None:
    text = cut_snapshot(TREE, max_lines=3, max_chars=5_000)
    assert text.splitlines()[:3] == TREE[:3]
    assert text.splitlines()[3] == "- note: 4 more lines cut (the snapshot keeps 3 lines, 5000 characters)"


def test_a_tree_over_its_character_budget_is_cut_at_a_whole_line() -> None:
    text = cut_snapshot(TREE, max_lines=50, max_chars=40)
    assert text.splitlines() == [
        TREE[0],
        "- note: 6 more lines cut (the snapshot keeps 50 lines, 40 characters)",
    ]


def test_an_empty_page_says_so() -> None:
    assert cut_snapshot([], max_lines=10, max_chars=100) == "(the page shows nothing)"


def test_the_diff_names_the_lines_removed_and_added_in_order() -> None:
    after = [*TREE[:5], "    - checkbox [checked] [ref=e5]", TREE[6], '- button "Clear completed" [ref=e9]']
    assert snapshot_diff(TREE, after, limit=20) == [
        "-     - checkbox [ref=e5]",
        "+     - checkbox [checked] [ref=e5]",
        '+ - button "Clear completed" [ref=e9]',
    ]


def test_no_change_is_an_empty_diff_and_a_long_diff_is_cut() -> None:
    assert snapshot_diff(TREE, list(TREE), limit=20) == []
    many = [f"- text: line {n}" for n in range(30)]
    diff = snapshot_diff([], many, limit=10)
    assert diff[:10] == [f"+ - text: line {n}" for n in range(10)]
    assert diff[10] == "(20 more changed lines cut)"


def test_requests_read_as_method_url_status() -> None:
    requests = [
        {"method": "GET", "url": "learn.json", "status": 404},
        {"method": "POST", "url": "/api/todos", "status": 0},
        "not a request",
    ]
    assert requests_text(requests) == ["GET learn.json 404", "POST /api/todos (failed or refused)"]
