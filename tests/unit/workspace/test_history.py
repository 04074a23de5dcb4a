"""History: version records, undo, hunks, undo_turn, restore_before, turns, and storage growth."""

from __future__ import annotations

import asyncio
import random

import pytest

from agentlite.workspace import Conflict, InvalidArgument, MemoryStorage, NotFound, Workspace
from tests.unit.workspace.helpers import aio, open_workspace, snapshot


@aio
async def test_history_records_have_the_contract_fields() -> None:
    ws = await open_workspace()
    await ws.write_text("/notes/a.txt", "hé\n", author="user")
    await ws.write_text("/notes/a.txt", "second")
    history = await ws.history("/notes/a.txt")
    assert [h["op"] for h in history] == ["create", "write"]
    for entry in history:
        assert {"version", "op", "size", "sha256", "turn", "author", "time", "path", "blob", "parent"} <= set(
            entry
        )
    assert history[0]["size"] == len("hé\n".encode()) and history[1]["size"] == 6
    assert [h["version"] for h in history] == [1, 2] and history[1]["parent"] == 1
    assert history[0]["turn"] != history[1]["turn"]  # each call without a turn is a turn of its own
    assert await ws.history("/never") == []


@aio
async def test_undo_of_write_create_delete_and_undo_of_undo() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "one")
    await ws.write("/a.txt", "two")
    await ws.undo("/a.txt")
    assert await ws.read_text("/a.txt") == "one"
    await ws.undo("/a.txt")  # undo is itself undoable
    assert await ws.read_text("/a.txt") == "two"
    await ws.delete("/a.txt")
    await ws.undo("/a.txt")
    assert await ws.read_text("/a.txt") == "two"
    await ws.write("/new/b.txt", "b")
    await ws.undo("/new/b.txt")  # undo of a create deletes it, and the folder made for it
    assert await snapshot(ws) == {"/a.txt": "two"}
    ops = [h["op"] for h in await ws.history("/a.txt")]
    assert ops == ["create", "write", "write", "write", "delete", "create"]
    notes = [h["note"] for h in await ws.history("/a.txt")]
    assert notes[2] is not None and notes[2].startswith("undo")
    with pytest.raises(NotFound):
        await ws.undo("/never")


@aio
async def test_undo_of_folder_delete_and_move() -> None:
    ws = await open_workspace()
    await ws.write("/d/a.txt", "a")
    await ws.write("/d/e/b.txt", "b")
    before = await snapshot(ws)
    await ws.delete("/d")
    await ws.undo("/d")
    assert await snapshot(ws) == before
    await ws.move("/d", "/x/y")
    await ws.undo("/x/y")
    assert await snapshot(ws) == before
    await ws.delete("/d")
    await ws.undo("/d/e/b.txt")  # one file of a deleted folder comes back with its folders
    assert await snapshot(ws) == {"/d": None, "/d/e": None, "/d/e/b.txt": "b"}


@aio
async def test_undo_reports_conflicts_instead_of_overwriting() -> None:
    ws = await open_workspace()
    await ws.write("/d/a.txt", "a")
    await ws.create_folder("/d/later")
    change = await ws.undo("/d")  # /d was created with a.txt; /d/later came after
    assert await snapshot(ws) == {"/d": None, "/d/later": None}
    assert [s.path for s in change.skipped] == ["/d"]
    assert "not empty" in change.skipped[0].reason


@aio
async def test_undo_keeps_moved_entries_a_restore_brought_back_elsewhere() -> None:
    ws = await open_workspace()
    await ws.create_folder("/b/a", turn="t1")
    await ws.move("/b", "/a/b", turn="t2")
    await ws.delete("/a", turn="t3")
    await ws.restore_before("t2", turn="t4")  # /b and /b/a are back where they were before the move
    change = await ws.undo("/a", turn="t4")  # the delete took /a with them: only /a can come back
    assert await snapshot(ws) == {"/a": None, "/b": None, "/b/a": None}
    assert sorted(s.path for s in change.skipped) == ["/b", "/b/a"]
    assert all("changed again later" in s.reason for s in change.skipped)
    assert [h["path"] for h in await ws.history("/b/a")] == ["/b/a", "/a/b/a", "/a/b/a", "/b/a"]


@aio
async def test_undo_at_a_path_takes_back_the_entry_the_change_replaced_there() -> None:
    """A restore puts the file /b back where a folder /b (with /b/a) had been since. Undo of /b brings the
    folder back, and undo again must give the file back: not leave /b empty."""
    ws = await open_workspace()
    await ws.write("/b", "file", turn="t1")
    await ws.restore_before("t1", turn="t2")
    await ws.write("/b/a", "inside", turn="t3")  # /b is now a folder: another entry
    await ws.restore_before("t2", turn="t4")
    assert await snapshot(ws) == {"/b": "file"}
    await ws.undo("/b", turn="t5")
    assert await snapshot(ws) == {"/b": None, "/b/a": "inside"}
    change = await ws.undo("/b", turn="t5")
    assert await snapshot(ws) == {"/b": "file"} and change.skipped == []
    assert [h["op"] for h in await ws.history("/b")] == ["create", "delete", "create", "delete", "create"]


@aio
async def test_diff_and_hunks_and_revert_hunk() -> None:
    ws = await open_workspace()
    base = [f"line {i}\n" for i in range(1, 31)]
    await ws.write("/f.txt", "".join(base))
    changed = list(base)
    changed[1] = "LINE 2\n"
    changed[24] = "LINE 25\n"
    await ws.write("/f.txt", "".join(changed))
    hunks = await ws.hunks("/f.txt", 2)
    assert [h.header for h in hunks] == ["@@ -1,5 +1,5 @@", "@@ -22,7 +22,7 @@"]
    assert "-line 2\n+LINE 2\n" in hunks[0].text()
    diff = await ws.diff("/f.txt", 1, 2)
    assert diff.startswith("--- a/f.txt@v1\n+++ b/f.txt@v2\n")
    assert diff == await ws.diff("/f.txt")
    later = list(changed)
    later.insert(0, "new first line\n")  # the file moved on; hunk 1 still applies, shifted
    await ws.write("/f.txt", "".join(later))
    change = await ws.revert_hunk("/f.txt", 2, 1)
    text = await ws.read_text("/f.txt")
    assert text is not None and "line 25\n" in text and "LINE 2\n" in text and text.startswith("new first")
    assert change.versions[0].op == "edit" and change.versions[0].note == "revert hunk 1 of version 2"
    await ws.write("/f.txt", "".join(later).replace("LINE 2\n", "other\n"))
    with pytest.raises(Conflict, match="no longer applies"):
        await ws.revert_hunk("/f.txt", 2, 0)
    with pytest.raises(InvalidArgument, match="has 2 hunks"):
        await ws.revert_hunk("/f.txt", 2, 5)
    with pytest.raises(NotFound):
        await ws.hunks("/f.txt", 99)


@aio
async def test_diff_of_binary_and_read_version() -> None:
    ws = await open_workspace()
    await ws.write("/b.bin", b"\x00one")
    await ws.write("/b.bin", b"\x00two")
    assert "Binary files" in await ws.diff("/b.bin")
    assert await ws.read_version("/b.bin", 1) == b"\x00one"
    await ws.delete("/b.bin")
    assert await ws.read_version("/b.bin", 3) is None
    assert await ws.read_version("/b.bin", 2) == b"\x00two"


@aio
async def test_one_turn_groups_changes_and_undo_turn_reverts_exactly_them() -> None:
    ws = await open_workspace()
    await ws.write("/keep.txt", "k")
    await ws.write("/a.txt", "a1")
    await ws.write("/a.txt", "a2", turn="t1", author="agent")
    await ws.write("/b.txt", "b", turn="t1", author="agent")
    await ws.edit("/a.txt", "a2", "a3", turn="t1", author="agent")
    await ws.delete("/keep.txt", turn="t1", author="agent")
    await ws.write("/user.txt", "mine", turn="u1", author="user")
    turns = {t["turn"]: t for t in await ws.turns()}
    assert turns["t1"]["author"] == "agent" and turns["t1"]["commits"] == 4
    change = await ws.undo_turn("t1")
    assert change.skipped == []
    assert await snapshot(ws) == {"/a.txt": "a1", "/keep.txt": "k", "/user.txt": "mine"}
    assert change.turn != "t1"


@aio
async def test_undo_turn_reports_later_changes_as_conflicts() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "agent a", turn="t1", author="agent")
    await ws.write("/b.txt", "agent b", turn="t1", author="agent")
    await ws.write("/a.txt", "user edit")
    change = await ws.undo_turn("t1")
    assert [(s.path, "changed again" in s.reason) for s in change.skipped] == [("/a.txt", True)]
    assert await snapshot(ws) == {"/a.txt": "user edit"}
    with pytest.raises(NotFound):
        await ws.undo_turn("nope")


@aio
async def test_interleaved_turns_conflict() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "1", turn="t1")
    await ws.write("/a.txt", "2", turn="t2")
    await ws.write("/a.txt", "3", turn="t1")
    change = await ws.undo_turn("t1")
    assert change.commit is None and [s.path for s in change.skipped] == ["/a.txt"]


@aio
async def test_restore_before_a_turn() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "a1", turn="t0")
    await ws.write("/d/x.txt", "x", turn="t0")
    before = await snapshot(ws)
    await ws.write("/a.txt", "a2", turn="t1", author="agent")
    await ws.move("/d", "/e", turn="t1", author="agent")
    await ws.write("/n.txt", "n", turn="t1", author="agent")
    await ws.delete("/a.txt", turn="t2", author="user")
    await ws.write("/e/x.txt", "changed", turn="t2", author="user")
    change = await ws.restore_before("t1")
    assert await snapshot(ws) == before
    assert change.skipped == [] and change.versions[0].note == "restore before turn t1"
    await ws.undo_turn(change.turn)  # the restore is itself undoable
    assert await snapshot(ws) == {"/e": None, "/e/x.txt": "changed", "/n.txt": "n"}


@aio
async def test_a_user_change_during_an_agent_turn_stays_out_of_it() -> None:
    ws = await open_workspace()
    started = asyncio.Event()
    release = asyncio.Event()

    async def agent() -> None:
        await ws.write("/agent.txt", "a", turn="agent-turn", author="agent")
        started.set()
        await release.wait()
        await ws.write("/agent2.txt", "a", turn="agent-turn", author="agent")

    async def user() -> None:
        await started.wait()
        await ws.write_text("/user.txt", "u", author="user")
        release.set()

    await asyncio.gather(agent(), user())
    assert {h["turn"] for h in await ws.history("/agent.txt") + await ws.history("/agent2.txt")} == {
        "agent-turn"
    }
    assert (await ws.history("/user.txt"))[0]["turn"] != "agent-turn"


@aio
async def test_a_change_without_a_turn_is_a_turn_of_its_own_by_the_user() -> None:
    ws = await open_workspace()
    first = await ws.write("/a.txt", "a")
    second = await ws.write("/b.txt", "b", turn="t1")
    third = await ws.write("/c.txt", "c", author="agent")
    assert (first.turn, first.author) == (f"auto-{first.commit}", "user")
    assert (second.turn, second.author) == ("t1", "user")
    assert (third.turn, third.author) == (f"auto-{third.commit}", "agent")
    assert [t["turn"] for t in await ws.turns()] == [first.turn, "t1", third.turn]


@aio
async def test_bad_turn_ids() -> None:
    ws = await open_workspace()
    with pytest.raises(InvalidArgument):
        await ws.write("/a.txt", "a", turn="")
    with pytest.raises(InvalidArgument):
        await ws.write("/a.txt", "a", author="x\n")


def _big_text(seed: int = 5) -> list[str]:
    rnd = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 "
    lines, size = [], 0
    while size < 1024 * 1024:
        line = "".join(rnd.choices(alphabet, k=rnd.randint(20, 90))) + "\n"
        lines.append(line)
        size += len(line)
    return lines


@aio
async def test_history_grows_with_the_change_not_the_file() -> None:
    """100 one-line edits of a 1 MB file take at most 2x one copy of the file in total."""
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    lines = _big_text()
    original = "".join(lines)
    await ws.write("/big.txt", original)
    rnd = random.Random(9)
    for index in range(100):
        number = rnd.randrange(len(lines))
        lines[number] = f"edit {index}: {lines[number]}"
        await ws.write("/big.txt", "".join(lines))
    assert len(await ws.history("/big.txt")) == 101
    assert storage.stored_bytes() <= 2 * len(original.encode())
    reopened = await open_workspace(storage)
    assert await reopened.read_version("/big.txt", 1) == original.encode()
    assert await reopened.read_text("/big.txt") == "".join(lines)


@aio
async def test_history_growth_without_compression_help() -> None:
    """The same bound holds for content zlib cannot shrink (hex of random bytes packs only ~2x)."""
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    rnd = random.Random(3)
    lines = [rnd.randbytes(40).hex() + "\n" for _ in range(13000)]
    await ws.write("/hex.txt", "".join(lines))
    size = len("".join(lines))
    for index in range(100):
        lines[rnd.randrange(len(lines))] = f"{index}\n"
        await ws.write("/hex.txt", "".join(lines))
    assert storage.stored_bytes("blobs") <= 2 * size
    assert await ws.read_version("/hex.txt", 50) is not None


@aio
async def test_the_same_content_is_stored_once() -> None:
    """Blobs are keyed by sha256: a second file with the same content, a copy under another turn, a
    revert to an older content and an undo all add no blob (and no blob bytes)."""
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    text = "".join(f"line {i} of a file big enough to be stored as a delta\n" for i in range(200))
    await ws.write("/a.txt", text)
    blobs, stored = len(storage.data["blobs"]), storage.stored_bytes("blobs")
    await ws.write("/b.txt", text)
    await ws.write("/dir/c.txt", text, turn="t2", author="shell")
    assert (len(storage.data["blobs"]), storage.stored_bytes("blobs")) == (blobs, stored)

    await ws.write("/a.txt", text.replace("line 7 ", "LINE 7 "))
    blobs, stored = len(storage.data["blobs"]), storage.stored_bytes("blobs")
    await ws.write("/a.txt", text)  # back to the older content: its blob is there already
    await ws.undo("/a.txt")  # and forward again: that blob is there too
    await ws.revert_hunk("/a.txt", 2, 0)
    assert (len(storage.data["blobs"]), storage.stored_bytes("blobs")) == (blobs, stored)
    assert await ws.read_text("/a.txt") == text
    assert [h["sha256"] for h in await ws.history("/a.txt")][::2] == [await sha_of(ws, "/b.txt")] * 3


async def sha_of(ws: Workspace, path: str) -> str:
    stat = await ws.stat(path)
    assert stat is not None
    return str(stat["sha256"])
