"""An opened folder and the workspace, three-way from the last sync: one side's change goes to the other,
both sides' different changes are a conflict, and nothing is ever overwritten silently."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentlite.workspace.mirror import plan, plan_folders

SYNCED = {"/same": "s", "/ws-edit": "s", "/disk-edit": "s", "/both": "s", "/ws-gone": "s", "/disk-gone": "s"}
SYNCED |= {"/agree": "s", "/edit-vs-gone": "s"}
WORKSPACE = {"/same": "s", "/ws-edit": "w", "/disk-edit": "s", "/both": "w", "/disk-gone": "s", "/agree": "n"}
WORKSPACE |= {"/ws-new": "w", "/new-both": "w", "/edit-vs-gone": "w", "/node_modules/x.js": "w"}
DISK = {"/same": "s", "/ws-edit": "s", "/disk-edit": "d", "/both": "d", "/ws-gone": "s", "/agree": "n"}
DISK |= {"/disk-new": "d", "/new-both": "d", "/sub/.git/HEAD": "d"}


def test_each_side_of_a_three_way_sync() -> None:
    result = plan(WORKSPACE, DISK, SYNCED)
    assert result.to_disk == ["/ws-edit", "/ws-new"]
    assert result.delete_on_disk == ["/ws-gone"]
    assert result.from_disk == ["/disk-edit", "/disk-new"]
    assert result.delete_in_workspace == ["/disk-gone"]
    assert result.settled == ["/agree"]
    assert result.conflicts == [
        {"path": "/both", "workspace": "w", "disk": "d"},
        {"path": "/edit-vs-gone", "workspace": "w", "disk": None},
        {"path": "/new-both", "workspace": "w", "disk": "d"},
    ]


def test_only_the_named_paths_are_decided() -> None:
    result = plan(WORKSPACE, DISK, SYNCED, only=["/ws-edit", "/both", "/nowhere"])
    assert result.to_dict() == {
        "to_disk": ["/ws-edit"],
        "delete_on_disk": [],
        "from_disk": [],
        "delete_in_workspace": [],
        "settled": [],
        "conflicts": [{"path": "/both", "workspace": "w", "disk": "d"}],
    }


def test_folders_by_presence_an_empty_one_comes_across_and_a_deleted_one_goes() -> None:
    workspace = ["/both", "/ws-new", "/disk-gone", "/node_modules"]
    disk = ["/both", "/disk-new", "/ws-gone", "/.git"]
    synced = ["/both", "/ws-gone", "/disk-gone"]
    result = plan_folders(workspace, disk, synced)
    assert result.to_disk == ["/ws-new"]
    assert result.from_disk == ["/disk-new"]
    assert result.delete_on_disk == ["/ws-gone"]
    assert result.delete_in_workspace == ["/disk-gone"]
    assert result.settled == [] and result.conflicts == []
    assert plan_folders(workspace, disk, synced, only=["/ws-new"]).to_disk == ["/ws-new"]
    assert plan_folders(workspace, disk, synced, only=["/ws-new"]).from_disk == []


sides = st.dictionaries(st.sampled_from(["/a", "/b", "/c"]), st.sampled_from(["x", "y", "z"]))


@given(sides, sides, sides)
def test_applying_a_plan_never_loses_a_change(
    workspace: dict[str, str], disk: dict[str, str], synced: dict[str, str]
) -> None:
    """After the plan, both sides agree on every path but the conflicts, and a side's own change survives."""
    result = plan(workspace, disk, synced)
    ws, dk = dict(workspace), dict(disk)
    for path in result.to_disk:
        dk[path] = ws[path]
    for path in result.delete_on_disk:
        del dk[path]
    for path in result.from_disk:
        ws[path] = dk[path]
    for path in result.delete_in_workspace:
        del ws[path]
    conflicted = {c["path"] for c in result.conflicts}
    for path in set(ws) | set(dk) | set(synced):
        if path in conflicted:
            assert ws.get(path) == workspace.get(path) and dk.get(path) == disk.get(path)
            continue
        assert ws.get(path) == dk.get(path)
        changed = [side.get(path) for side in (workspace, disk) if side.get(path) != synced.get(path)]
        assert all(ws.get(path) == c for c in changed)


def test_no_spelling_of_git_is_mirrored() -> None:
    """A case-insensitive disk files `/.GIT/hooks/pre-commit` in its real `.git/hooks/`: git runs hooks."""
    spellings = [
        "/.GIT/hooks/pre-commit",
        "/.git./config",
        "/GIT~1/hooks/x",
        "/a/.g\u200cit/HEAD",
        "/.git /x",
    ]
    workspace = dict.fromkeys([*spellings, "/ok.txt"], "w")
    result = plan(workspace, {}, {})
    assert result.to_disk == ["/ok.txt"]
    assert plan_folders(["/.GIT", "/.GIT/hooks", "/src"], [], []).to_disk == ["/src"]
