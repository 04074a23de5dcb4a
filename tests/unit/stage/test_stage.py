"""A chat's stage: the agent's writes land on it, the workspace stays as it was until the user keeps a
file or a hunk; dropped changes leave the workspace alone; a workspace change under the stage is a
conflict, never overwritten; the stage is stored, so a new book over the same storage finds it."""

from __future__ import annotations

import pytest

from agentlite.stage.stage import Pick
from agentlite.stage.stage_book import StageBook
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage
from agentlite.workspace.workspace_errors import Conflict, WorkspaceError
from tests.unit.workspace.helpers import aio, open_workspace, snapshot

CHAT = "c1"
TEN = "".join(f"line {n}\n" for n in range(1, 31))


async def started(storage: MemoryStorage | None = None) -> tuple[Workspace, StageBook]:
    ws = await open_workspace(storage)
    await ws.write("/a.txt", TEN, turn="setup", author="user")
    await ws.write("/b.txt", "b\n", turn="setup", author="user")
    await ws.write("/old/c.txt", "c\n", turn="setup", author="user")
    await ws.write("/AGENTS.md", "be nice\n", turn="setup", author="user")
    return ws, StageBook(ws)


async def agent_turn(book: StageBook) -> Workspace:
    staged = book.stage(CHAT).workspace()
    await staged.write(
        "/a.txt",
        TEN.replace("line 2\n", "LINE 2\n").replace("line 28\n", "LINE 28\n"),
        turn="t1",
        author="agent",
    )
    await staged.write("/new/d.txt", "d\n", turn="t1", author="agent")
    await staged.delete("/b.txt", turn="t1", author="agent")
    await staged.move("/old/c.txt", "/moved/c.txt", turn="t1", author="agent")
    return staged


@aio
async def test_the_workspace_stays_as_it_was_while_the_stage_shows_the_change() -> None:
    ws, book = await started()
    before = await snapshot(ws)
    staged = await agent_turn(book)
    assert await snapshot(ws) == before
    assert await staged.read_text("/new/d.txt") == "d\n"
    assert await staged.read_text("/b.txt") is None
    review = await book.stage(CHAT).review()
    rows = {
        row["path"]: (row["change"], row["state"], row["added"], row["removed"]) for row in review["files"]
    }
    assert rows == {
        "/a.txt": ("edited", "pending", 2, 2),
        "/b.txt": ("deleted", "pending", 0, 1),
        "/moved/c.txt": ("moved", "pending", 0, 0),
        "/new/d.txt": ("created", "pending", 1, 0),
    }
    assert review["pending"] == 4 and review["turn"] == "t1"


@aio
async def test_keep_all_makes_one_change_of_the_stage_turn_and_closes_the_stage() -> None:
    ws, book = await started()
    staged = await agent_turn(book)
    wanted = await snapshot(staged)
    commits = ws.tree.meta.commit
    review = await book.stage(CHAT).decide(
        {row: Pick(True) for row in ("/a.txt", "/b.txt", "/moved/c.txt", "/new/d.txt")}
    )
    assert review["pending"] == 0 and {r["state"] for r in review["files"]} == {"kept"}
    assert (await book.stage(CHAT).review())["files"] == []
    assert await snapshot(ws) == wanted
    assert ws.tree.meta.commit == commits + 1
    assert "t1" in {t["turn"] for t in await ws.turns()}
    assert [v["path"] for v in await ws.history("/moved/c.txt")][:1] == ["/old/c.txt"]  # history came along
    assert await snapshot(book.stage(CHAT).workspace()) == wanted


@aio
async def test_hunks_kept_and_dropped_one_by_one() -> None:
    ws, book = await started()
    await agent_turn(book)
    stage = book.stage(CHAT)
    view = await stage.file("/a.txt")
    assert [h["index"] for h in view["hunks"]] == [0, 1]
    await stage.decide({"/a.txt": Pick(True, frozenset({0}))})
    assert await ws.read_text("/a.txt") == TEN.replace("line 2\n", "LINE 2\n")
    view = await stage.file("/a.txt")
    assert [(h["index"], h["state"]) for h in view["hunks"]] == [(None, "kept"), (0, "pending")]
    review = await stage.decide({"/a.txt": Pick(False, frozenset({0}))})
    assert await ws.read_text("/a.txt") == TEN.replace("line 2\n", "LINE 2\n")
    assert await stage.workspace().read_text("/a.txt") == TEN.replace("line 2\n", "LINE 2\n")
    row = next(r for r in review["files"] if r["path"] == "/a.txt")
    assert row["state"] == "kept" and review["pending"] == 3


@aio
async def test_drop_all_leaves_the_workspace_and_keeps_the_proposal_stored() -> None:
    ws, book = await started()
    before = await snapshot(ws)
    await agent_turn(book)
    stage = book.stage(CHAT)
    review = await stage.decide({p: Pick(False) for p in ("/a.txt", "/b.txt", "/moved/c.txt", "/new/d.txt")})
    assert review["pending"] == 0
    assert await snapshot(ws) == before
    assert await snapshot(stage.workspace()) == before
    stored = await ws.storage.keys("stage")
    assert any("/versions/" in key for key in stored)  # the dropped proposal is still in the history


@aio
async def test_a_workspace_change_under_a_staged_file_is_a_conflict_never_overwritten() -> None:
    ws, book = await started()
    await agent_turn(book)
    await ws.write("/a.txt", TEN.replace("line 15\n", "USER 15\n"), author="user")
    stage = book.stage(CHAT)
    review = await stage.review()
    assert next(r for r in review["files"] if r["path"] == "/a.txt")["state"] == "conflict"
    with pytest.raises(Conflict):
        await stage.decide({"/a.txt": Pick(True)})
    view = await stage.file("/a.txt")
    assert view["conflict"]["base"] == TEN and "USER 15" in view["conflict"]["theirs"]
    await stage.resolve("/a.txt", "merged")
    merged = await ws.read_text("/a.txt")
    assert merged is not None and all(s in merged for s in ("LINE 2", "USER 15", "LINE 28"))
    assert "/a.txt" not in {r["path"] for r in (await stage.review())["files"] if r["state"] != "kept"}


@aio
async def test_theirs_keeps_the_workspace_file() -> None:
    ws, book = await started()
    await agent_turn(book)
    await ws.write("/a.txt", "user\n", author="user")
    await book.stage(CHAT).resolve("/a.txt", "theirs")
    assert await ws.read_text("/a.txt") == "user\n"
    assert await book.stage(CHAT).workspace().read_text("/a.txt") == "user\n"


@aio
async def test_an_untouched_file_changed_in_the_workspace_shows_through_the_stage() -> None:
    ws, book = await started()
    staged = await agent_turn(book)
    assert await staged.read_text("/AGENTS.md") == "be nice\n"
    await ws.write("/AGENTS.md", "be kind\n", author="user")
    await ws.write("/user.txt", "u\n", author="user")
    assert await staged.read_text("/AGENTS.md") == "be kind\n"
    assert await staged.read_text("/user.txt") == "u\n"
    assert (await book.stage(CHAT).review())["pending"] == 4


@aio
async def test_a_new_book_over_the_same_storage_finds_the_stage() -> None:
    storage = MemoryStorage()
    _ws, book = await started(storage)
    await agent_turn(book)
    await book.stage(CHAT).decide({"/a.txt": Pick(True, frozenset({1}))})
    again = await Workspace.open(storage)
    fresh = StageBook(again)
    await fresh.load()
    review = await fresh.stage(CHAT).review()
    assert review["pending"] == 4
    assert await fresh.stage(CHAT).workspace().read_text("/new/d.txt") == "d\n"
    assert [h["state"] for h in (await fresh.stage(CHAT).file("/a.txt"))["hunks"]] == ["kept", "pending"]


@aio
async def test_a_created_file_kept_is_one_file_on_both_sides() -> None:
    ws, book = await started()
    staged = book.stage(CHAT).workspace()
    await staged.write("/deep/er/x.txt", "x\n", turn="t1", author="agent")
    await staged.write("/y.txt", "y\n", turn="t1", author="agent")
    await book.stage(CHAT).decide({"/deep/er/x.txt": Pick(True)})
    assert await ws.read_text("/deep/er/x.txt") == "x\n"
    listed = [e["path"] for e in await book.stage(CHAT).workspace().list("/", recursive=True)]
    assert listed.count("/deep/er/x.txt") == 1 and "/y.txt" in listed


@aio
async def test_a_second_chat_has_a_stage_of_its_own() -> None:
    _ws, book = await started()
    await agent_turn(book)
    other = book.stage("c2").workspace()
    assert await other.read_text("/new/d.txt") is None
    assert (await book.stage("c2").review())["pending"] == 0


@aio
async def test_a_failed_staged_write_leaves_the_stage_at_its_last_whole_change() -> None:
    storage = MemoryStorage()
    ws, book = await started(storage)
    staged = book.stage(CHAT).workspace()
    await staged.write("/a.txt", "first\n", turn="t1", author="agent")
    for kind in ("io", "quota", "lost_ack"):
        storage.fail_commit(kind=kind)  # type: ignore[arg-type]
        with pytest.raises(WorkspaceError):
            await staged.write("/a.txt", f"{kind}\n", turn="t1", author="agent")
        again = StageBook(await Workspace.open(storage)).stage(CHAT).workspace()  # as after a crash
        assert await again.read_text("/a.txt") in ("first\n", f"{kind}\n")  # whole, never torn
        assert await again.check() == []
    assert await ws.read_text("/a.txt") == TEN
    await staged.write("/a.txt", "after\n", turn="t1", author="agent")
    assert (await book.stage(CHAT).review())["pending"] == 1
