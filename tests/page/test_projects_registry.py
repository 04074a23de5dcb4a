"""The list of projects in one browser (web/src/projects/registry.js, docs/projects.md) under Node, on a
fake `localStorage`: the default project needs no upgrade step, names are checked, two tabs keep each
other's projects, corrupt JSON is survived, per-project overrides stay within the settings' bounds."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.page.projects_cases import answers

STORE = "agentlite.projects"


def run(steps: list[list[Any]], storage: dict[str, str] | None = None) -> tuple[list[Any], dict[str, str]]:
    (done,) = answers({"op": "registry", "steps": steps, "storage": storage or {}})
    return done["answers"], done["storage"]


def values(steps: list[list[Any]], storage: dict[str, str] | None = None) -> list[Any]:
    found, _ = run(steps, storage)
    return [answer.get("value", answer) for answer in found]


def test_the_database_names_keep_the_default_project_where_a_single_workspace_was() -> None:
    default, other, constants = answers(
        {"op": "names", "id": "default"}, {"op": "names", "id": "ab12"}, {"op": "constants"}
    )
    assert default == {
        "database": "agentlite",
        "attachments": "agentlite-attachments",
        "folder": "agentlite-folder",
        "lock": "agentlite-workspace",
    }
    assert other == {
        "database": "agentlite-p-ab12",
        "attachments": "agentlite-attachments-p-ab12",
        "folder": "agentlite-folder-p-ab12",
        "lock": "agentlite-workspace-p-ab12",
    }
    assert (constants["id"], constants["name"]) == ("default", "My project")


def test_with_nothing_stored_the_list_is_the_default_project_and_reading_writes_nothing() -> None:
    (listed, got, named), storage = run(
        [["a", "list"], ["a", "get", "default"], ["a", "byName", "my PROJECT"]]
    )
    assert [p["id"] for p in listed["value"]] == ["default"]
    assert listed["value"][0]["name"] == "My project"
    assert listed["value"][0]["overrides"] == {}
    assert got["value"]["id"] == named["value"]["id"] == "default"
    assert storage == {}


def test_create_gives_a_fresh_id_safe_in_a_database_name_and_the_list_is_recent_first() -> None:
    made, second, touched, listed = values(
        [["a", "create", "  Report  "], ["a", "create", "Notes"], ["a", "touch", "default"], ["a", "list"]]
    )
    assert made["name"] == "Report" and made["overrides"] == {}
    assert re.fullmatch(r"[0-9a-f]{32}", made["id"]) and made["id"] != second["id"]
    assert made["created"] == made["opened"] and second["opened"] > made["opened"]
    assert touched["opened"] > second["opened"]
    assert [p["name"] for p in listed] == ["My project", "Notes", "Report"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "empty"),
        ("   \t ", "empty"),
        ("x" * 61, "60 characters"),
        ("a\u0000b", "control"),
        ("line\nbreak", "control"),
        ("bidi\u202etxt", "control"),
        ("my project", "already"),
        ("NOTES", "already"),
        (42, "text"),
    ],
)
def test_create_refuses_a_name_it_cannot_keep_with_a_message_for_the_user(name: Any, says: str) -> None:
    (_, refused), storage = run([["a", "create", "Notes"], ["a", "create", name]])
    assert refused["error"]["name"] == "ProjectNameError"
    assert says in refused["error"]["message"]
    assert [p["name"] for p in json.loads(storage[STORE])["projects"]] == ["My project", "Notes"]


def test_a_name_of_sixty_characters_and_any_script_is_kept() -> None:
    long, other = values([["a", "create", "é" * 60], ["a", "create", "Отчёт 報告 🚀"]])
    assert long["name"] == "é" * 60 and other["name"] == "Отчёт 報告 🚀"


def test_ensure_returns_the_project_of_that_name_or_creates_it() -> None:
    first, again, default = values(
        [["a", "ensure", "Demo"], ["a", "ensure", "demo"], ["a", "ensure", "My project"]]
    )
    assert first["id"] == again["id"] and first["name"] == "Demo"
    assert default["id"] == "default"


def test_rename_checks_the_name_and_may_change_only_its_case() -> None:
    made, case, taken, renamed, listed = values(
        [
            ["a", "create", "Notes"],
            ["a", "rename", "default", "my PROJECT"],
            ["a", "rename", "default", "notes"],
            ["a", "rename", "default", "Home"],
            ["a", "list"],
        ]
    )
    assert case["name"] == "my PROJECT"
    assert taken["error"]["name"] == "ProjectNameError" and "already" in taken["error"]["message"]
    assert renamed["id"] == "default" and renamed["name"] == "Home"
    assert sorted(p["name"] for p in listed) == ["Home", "Notes"]
    assert made["name"] == "Notes"


def test_a_project_another_tab_removed_is_not_brought_back() -> None:
    found, storage = run([["a", "create", "Gone"]])
    pid = found[0]["value"]["id"]
    steps = [
        ["b", "remove", pid],
        ["a", "rename", pid, "Back"],
        ["a", "touch", pid],
        ["a", "setOverrides", pid, {"max_rounds": 3}],
        ["a", "overrides", pid],
        ["a", "list"],
    ]
    removed, renamed, touched, overridden, overrides, listed = values(steps, storage)
    assert removed is True
    assert renamed is None and touched is None and overridden is None and overrides == {}
    assert [p["name"] for p in listed] == ["My project"]


def test_removing_the_last_project_leaves_the_default_one() -> None:
    found, storage = run([["a", "create", "Only"]])
    pid = found[0]["value"]["id"]
    steps = [
        ["a", "remove", "default"],
        ["a", "list"],
        ["a", "remove", pid],
        ["a", "list"],
        ["a", "remove", "nope"],
    ]
    removed_default, after_default, removed_only, after_only, missing = values(steps, storage)
    assert removed_default is True
    assert [p["name"] for p in after_default] == ["Only"]
    assert removed_only is True
    assert [(p["id"], p["name"]) for p in after_only] == [("default", "My project")]
    assert missing is False


def test_unique_name_counts_up_past_the_names_taken_and_keeps_within_the_length() -> None:
    steps = [
        ["a", "uniqueName", "Report"],
        ["a", "create", "Report"],
        ["a", "create", "report (2)"],
        ["a", "uniqueName", "REPORT"],
        ["a", "uniqueName", "  "],
        ["a", "uniqueName", "x" * 70],
        ["a", "create", "x" * 60],
        ["a", "uniqueName", "x" * 60],
        ["a", "uniqueName", "tab\there"],
    ]
    free, _, _, third, blank, long, _, long_two, control = values(steps)
    assert free == "Report"
    assert third == "REPORT (3)"
    assert blank == "My project (2)"
    assert long == "x" * 60
    assert long_two == "x" * 56 + " (2)"
    assert control == "tab here"


def test_two_tabs_creating_and_renaming_keep_each_others_projects() -> None:
    steps = [
        ["a", "list"],
        ["b", "list"],
        ["a", "create", "From A"],
        ["b", "create", "From B"],
        ["b", "rename", "default", "Renamed in B"],
        ["a", "create", "Again A"],
        ["a", "create", "from b"],
        ["b", "list"],
        ["a", "list"],
    ]
    found, storage = run(steps)
    taken = found[6]["error"]
    in_b, in_a = found[7]["value"], found[8]["value"]
    assert taken["name"] == "ProjectNameError"
    assert sorted(p["name"] for p in in_b) == ["Again A", "From A", "From B", "Renamed in B"]
    assert in_a == in_b
    assert len(json.loads(storage[STORE])["projects"]) == 4


@pytest.mark.parametrize(
    "stored",
    [
        "{not json",
        "null",
        "[]",
        '"text"',
        '{"projects": "many"}',
        '{"projects": []}',
        '{"projects": [{"id": "../x", "name": "Bad"}, {"id": 3}, null]}',
    ],
)
def test_corrupt_stored_json_never_throws_and_reads_as_the_default_list(stored: str) -> None:
    (listed, got), storage = run([["a", "list"], ["a", "get", "default"]], {STORE: stored})
    assert [p["id"] for p in listed["value"]] == ["default"]
    assert got["value"]["name"] == "My project"
    assert storage == {STORE: stored}, "not overwritten until the next write"
    (made, again), storage = run([["a", "create", "Fresh"], ["a", "list"]], {STORE: stored})
    assert sorted(p["name"] for p in again["value"]) == ["Fresh", "My project"]
    assert made["value"]["name"] == "Fresh"


def test_stored_entries_that_cannot_be_kept_are_dropped_and_the_rest_kept() -> None:
    good = {
        "id": "0123abcd",
        "name": "Kept",
        "created": 5,
        "opened": 9,
        "overrides": {"max_rounds": 999, "x": 1},
    }
    stored = {
        "version": 1,
        "projects": [
            good,
            {"id": "0123abcd", "name": "Twin"},
            {"id": "bad id", "name": "Bad"},
            {"id": "ok2", "name": ""},
        ],
    }
    (listed,), _ = run([["a", "list"]], {STORE: json.dumps(stored)})
    assert [(p["id"], p["name"], p["overrides"]) for p in listed["value"]] == [
        ("0123abcd", "Kept", {"max_rounds": 50})
    ]


def test_overrides_keep_only_known_settings_within_their_bounds() -> None:
    partial = {
        "max_rounds": 500,
        "context_window": "4096",
        "eval_timeout_s": 0,
        "dialect": "json",
        "auto_approve": ["delete", "nonsense", "shell"],
        "changes": "review",
        "api_key": "sk-secret",
        "base_url": "https://elsewhere",
    }
    steps = [
        ["a", "overrides", "default"],
        ["a", "setOverrides", "default", partial],
        [
            "a",
            "setOverrides",
            "default",
            {"dialect": "klingon", "max_rounds": None, "context_window": "lots", "changes": "later"},
        ],
        ["a", "overrides", "default"],
        ["a", "get", "default"],
    ]
    (before, first, second, after, project), storage = run(steps)
    assert before["value"] == {}
    assert first["value"] == {
        "max_rounds": 50,
        "context_window": 4096,
        "eval_timeout_s": 1,
        "dialect": "json",
        "auto_approve": ["delete", "shell"],
        "changes": "review",
    }
    assert (
        second["value"]
        == after["value"]
        == {
            "context_window": 4096,
            "eval_timeout_s": 1,
            "dialect": "json",
            "auto_approve": ["delete", "shell"],
            "changes": "review",
        }
    )
    assert project["value"]["overrides"] == after["value"]
    assert "sk-secret" not in storage[STORE]


def test_on_change_hears_other_tabs_writes_of_the_list_until_stopped() -> None:
    (count,) = answers({"op": "changes", "keys": ["agentlite.projects", "agentlite.settings", None]})
    assert count == 2, "the list's key, and a clear of the whole storage"
