"""Changes made on a copy (the shell's), applied as ONE change: what is kept, what is skipped and why,
and undo_commit taking one change back."""

from __future__ import annotations

from agentlite.workspace import ChangeSet, NotFound, Workspace
from tests.unit.workspace.helpers import aio, open_workspace, snapshot

START = {"/a.txt": "a\n", "/b.txt": "b\n", "/dir/c.txt": "c\n", "/dir/sub/d.txt": "d\n"}


async def started() -> Workspace:
    ws = await open_workspace()
    for path, text in START.items():
        await ws.write(path, text, turn="setup", author="user")
    return ws


def seen(*names: str) -> dict[str, str | None]:
    return {path: START.get(path) for path in names}


@aio
async def test_everything_is_one_commit_and_undo_commit_takes_it_back() -> None:
    ws = await started()
    before, first = await snapshot(ws), ws.tree.meta.commit
    changes = ChangeSet(
        writes={"/a.txt": "A\n", "/new/e.txt": "e\n"},
        deletes=["/b.txt", "/dir/c.txt", "/dir/sub/d.txt"],
        folders=["/new", "/empty"],
        removed_folders=["/dir", "/dir/sub"],
        note="shell: things",
    )
    changes.seen = seen("/a.txt", "/new/e.txt", "/b.txt", "/dir/c.txt", "/dir/sub/d.txt")
    change = await ws.apply_changes(changes, turn="t1", author="shell")
    assert change.commit == first + 1 == ws.tree.meta.commit and not change.skipped
    assert {(v.path, v.op) for v in change.versions} == {
        ("/a.txt", "write"),
        ("/new/e.txt", "create"),
        ("/new", "create"),
        ("/empty", "create"),
        ("/b.txt", "delete"),
        ("/dir/c.txt", "delete"),
        ("/dir/sub/d.txt", "delete"),
        ("/dir", "delete"),
        ("/dir/sub", "delete"),
    }
    assert {v.note for v in change.versions} == {"shell: things"}
    assert await snapshot(ws) == {"/a.txt": "A\n", "/empty": None, "/new": None, "/new/e.txt": "e\n"}
    undo = await ws.undo_commit(change.commit or 0, turn="t2", author="user")
    assert undo.commit == first + 2 and not undo.skipped
    assert await snapshot(ws) == before
    assert await ws.check() == []


@aio
async def test_paths_changed_meanwhile_are_kept_and_the_rest_applies() -> None:
    ws = await started()
    await ws.write("/a.txt", "user\n", turn="u", author="user")  # after the copy was taken
    await ws.write("/late.txt", "user\n", turn="u", author="user")
    changes = ChangeSet(
        writes={"/a.txt": "shell\n", "/late.txt": "shell\n", "/ok.txt": "ok\n"},
        deletes=["/b.txt"],
        during="while the command ran",
    )
    changes.seen = {**seen("/a.txt", "/b.txt"), "/late.txt": None, "/ok.txt": None}
    await ws.write("/b.txt", "edited\n", turn="u", author="user")
    change = await ws.apply_changes(changes)
    reasons = {skip.path: skip.reason for skip in change.skipped}
    assert reasons == {
        "/a.txt": "it was changed in the workspace while the command ran; this version of it was not kept",
        "/late.txt": "it was created in the workspace while the command ran; this version of it was not kept",
        "/b.txt": "it changed in the workspace while the command ran; kept",
    }
    assert [v.path for v in change.versions] == ["/ok.txt"]
    assert await ws.read_text("/a.txt") == "user\n" and await ws.read_text("/b.txt") == "edited\n"


@aio
async def test_bad_paths_kinds_and_sizes_skip_only_that_path() -> None:
    ws = await started()
    ws.max_file_size = 10
    changes = ChangeSet(
        writes={"/a.txt/x": "x", "/dir": "file?", "/big.txt": "b" * 11, "/../up.txt": "u", "/fine": "f"},
        deletes=["/dir"],
        folders=["/a.txt", "bad\x00name"],
    )
    change = await ws.apply_changes(changes)
    reasons = {skip.path: skip.reason for skip in change.skipped}
    assert set(reasons) == {"/a.txt/x", "/dir", "/big.txt", "/../up.txt", "/a.txt", "bad\x00name"}
    assert "/a.txt is a file, not a folder" in reasons["/a.txt/x"]
    assert reasons["/dir"] == "/dir is a folder in the workspace; it was not replaced by a file"
    assert "the limit is 10 bytes" in reasons["/big.txt"]
    assert reasons["/a.txt"] == "/a.txt is a file in the workspace; a folder cannot have the same path"
    assert "control character" in reasons["bad\x00name"]
    assert "goes above the workspace root" in reasons["/../up.txt"]
    assert [v.path for v in change.versions] == ["/fine"]


@aio
async def test_a_removed_thing_can_be_replaced_in_the_same_change() -> None:
    ws = await started()
    changes = ChangeSet(
        writes={"/dir": "now a file\n"},
        deletes=["/dir/c.txt", "/dir/sub/d.txt", "/a.txt"],
        folders=["/a.txt"],
        removed_folders=["/dir", "/dir/sub"],
    )
    changes.seen = seen("/dir", "/dir/c.txt", "/dir/sub/d.txt", "/a.txt")
    change = await ws.apply_changes(changes)
    assert not change.skipped
    assert await snapshot(ws) == {"/a.txt": None, "/b.txt": "b\n", "/dir": "now a file\n"}
    await ws.undo_commit(change.commit or 0)
    assert await snapshot(ws) == await snapshot(await started())


@aio
async def test_a_folder_still_holding_unseen_files_is_kept() -> None:
    ws = await started()
    changes = ChangeSet(deletes=["/dir/sub/d.txt"], removed_folders=["/dir", "/dir/sub"])
    changes.seen = seen("/dir/sub/d.txt")
    change = await ws.apply_changes(changes)
    assert [(s.path, s.reason) for s in change.skipped] == [
        ("/dir", "the folder /dir is not empty (/dir/c.txt)")
    ]
    assert await ws.exists("/dir") and not await ws.exists("/dir/sub")


@aio
async def test_nothing_to_apply_is_no_commit() -> None:
    ws = await started()
    commit = ws.tree.meta.commit
    change = await ws.apply_changes(ChangeSet(folders=["/dir"], removed_folders=["/nowhere"]))
    assert change.commit is None and ws.tree.meta.commit == commit


@aio
async def test_undo_commit_reports_entries_changed_later_and_refuses_unknown_numbers() -> None:
    ws = await started()
    changes = ChangeSet(writes={"/a.txt": "A\n", "/b.txt": "B\n"}, seen=seen("/a.txt", "/b.txt"))
    change = await ws.apply_changes(changes)
    await ws.write("/a.txt", "later\n")
    undo = await ws.undo_commit(change.commit or 0)
    assert [s.path for s in undo.skipped] == ["/a.txt"]
    assert await ws.read_text("/a.txt") == "later\n" and await ws.read_text("/b.txt") == "b\n"
    for number in (0, ws.tree.meta.commit + 1):
        try:
            await ws.undo_commit(number)
        except NotFound as error:
            assert "changes are numbered 1 to" in error.message
        else:
            raise AssertionError(f"undo_commit({number}) did not fail")
