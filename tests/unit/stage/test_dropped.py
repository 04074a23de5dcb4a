"""Dropped proposals stay in the file's history (docs/review.md): a file dropped whole, hunks dropped
one by one, a conflict settled with the workspace's text, a move dropped (listed under the path the
file keeps), each a record with its diff; kept changes and other files add none; a new book over the
same storage lists them; a decision refused half way records nothing."""

from __future__ import annotations

import pytest

from agentlite.rooms.stage_room import StageRoom
from agentlite.stage.dropped import DIFF_CHARS, PREFIX, hunks_diff, whole_file_diff
from agentlite.stage.stage import Pick
from agentlite.stage.stage_book import StageBook
from agentlite.workspace.workspace_errors import Conflict
from tests.unit.stage.test_stage import CHAT, TEN, agent_turn, started
from tests.unit.workspace.helpers import aio


@aio
async def test_a_file_dropped_whole_is_listed_with_the_diff_the_user_saw() -> None:
    ws, book = await started()
    await agent_turn(book)
    room = StageRoom(ws, book)
    await book.stage(CHAT).decide({"/a.txt": Pick(False), "/new/d.txt": Pick(True)})
    (record,) = await room.dropped("/a.txt")
    assert (record["chat"], record["turn"], record["change"], record["hunks"]) == (CHAT, "t1", "edited", 0)
    assert "-line 2\n+LINE 2\n" in record["diff"] and "+LINE 28\n" in record["diff"]
    assert record["diff"].startswith("--- a/a.txt\n+++ b/a.txt\n")
    assert await room.dropped("/new/d.txt") == []  # kept: it is in the file's own versions
    assert await ws.read_text("/a.txt") == TEN


@aio
async def test_hunks_dropped_one_by_one_are_each_a_record() -> None:
    ws, book = await started()
    await agent_turn(book)
    stage = book.stage(CHAT)
    await stage.decide({"/a.txt": Pick(False, frozenset({1}))})
    await stage.decide({"/a.txt": Pick(True, frozenset({0}))})
    (record,) = await StageRoom(ws, book).dropped("/a.txt")
    assert record["hunks"] == 1
    assert "+LINE 28" in record["diff"] and "LINE 2\n" not in record["diff"]
    assert await ws.read_text("/a.txt") == TEN.replace("line 2\n", "LINE 2\n")


@aio
async def test_a_conflict_settled_with_theirs_and_a_dropped_move_are_listed() -> None:
    ws, book = await started()
    await agent_turn(book)
    await ws.write("/a.txt", "user\n", author="user")
    stage = book.stage(CHAT)
    await stage.resolve("/a.txt", "theirs")
    await stage.decide({"/moved/c.txt": Pick(False), "/b.txt": Pick(False)})
    room = StageRoom(ws, book)
    assert [r["hunks"] for r in await room.dropped("/a.txt")] == [0]
    (moved,) = await room.dropped("/old/c.txt")  # the file stays where it was: its history lists it
    assert (moved["change"], moved["proposed_path"]) == ("moved", "/moved/c.txt")
    (deleted,) = await room.dropped("/b.txt")
    assert deleted["change"] == "deleted" and deleted["diff"].endswith("-b\n")
    reopened = StageRoom(ws, StageBook(ws))
    assert [r["change"] for r in await reopened.dropped("/b.txt")] == ["deleted"]


@aio
async def test_a_refused_decision_records_nothing() -> None:
    ws, book = await started()
    await agent_turn(book)
    await ws.write("/a.txt", "user\n", author="user")
    with pytest.raises(Conflict):
        await book.stage(CHAT).decide({"/b.txt": Pick(False), "/a.txt": Pick(False)})
    await book.stage(CHAT).decide({"/new/d.txt": Pick(True)})
    assert await StageRoom(ws, book).dropped("/b.txt") == []
    assert not [k for k in await ws.storage.keys("stage") if k.startswith(PREFIX)]


def test_diffs_of_binary_files_are_empty_and_long_ones_are_cut() -> None:
    assert whole_file_diff("/x.bin", None, b"\x00\x01", b"\x00\x02") == ""
    assert (
        whole_file_diff("/new.txt", None, None, b"hi\n")
        == "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n"
    )
    long = whole_file_diff("/big.txt", None, b"", ("x" * 99 + "\n").encode() * 5_000)
    assert len(long) < DIFF_CHARS + 100 and long.endswith("[... cut: the diff is longer]\n")
    assert hunks_diff("/a.txt", []) == ""
