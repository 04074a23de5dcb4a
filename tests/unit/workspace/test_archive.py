"""Zip export / import: deterministic bytes, byte-identical round trips, import as one change."""

from __future__ import annotations

import io
import zipfile

import pytest

from agentlite.workspace import (
    CorruptData,
    FileTooLarge,
    InvalidArgument,
    InvalidPath,
    MemoryStorage,
    NotAFile,
    Workspace,
)
from tests.unit.workspace.helpers import aio, open_workspace, snapshot


async def sample() -> Workspace:
    ws = await open_workspace()
    await ws.write("/src/a.py", "print('a')\n" * 200, turn="t1", author="agent")
    await ws.write("/src/a.py", "print('a')\n" * 199 + "print('b')\n", turn="t2", author="agent")
    await ws.write("/bin/logo.png", b"\x89PNG\r\n\x1a\n\x00\x01")
    await ws.create_folder("/empty")
    await ws.write("/gone.txt", "bye")
    await ws.delete("/gone.txt")
    return ws


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@aio
async def test_export_has_files_and_folders_with_fixed_timestamps() -> None:
    ws = await sample()
    data = await ws.export_zip()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == [
            "files/bin/",
            "files/bin/logo.png",
            "files/empty/",
            "files/src/",
            "files/src/a.py",
        ]
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.read("files/bin/logo.png") == b"\x89PNG\r\n\x1a\n\x00\x01"
    assert await ws.export_zip() == data  # deterministic


@aio
async def test_round_trip_with_history_is_byte_identical() -> None:
    ws = await sample()
    exported = await ws.export_zip(history=True)
    before = await snapshot(ws)
    history = await ws.history("/src/a.py")
    await ws.clear()
    assert await snapshot(ws) == {}
    await ws.import_zip(exported)
    assert await snapshot(ws) == before
    assert await ws.history("/src/a.py") == history
    assert [h["op"] for h in await ws.history("/gone.txt")] == ["create", "delete"]
    assert await ws.export_zip(history=True) == exported
    fresh = await open_workspace()
    await fresh.import_zip(exported, history=True)
    assert await fresh.export_zip(history=True) == exported
    await fresh.undo_turn("t2")  # the imported history works like any other
    assert await fresh.read_text("/src/a.py") == "print('a')\n" * 200


@aio
async def test_history_import_needs_an_empty_workspace() -> None:
    ws = await sample()
    exported = await ws.export_zip(history=True)
    with pytest.raises(InvalidArgument, match="empty workspace"):
        await ws.import_zip(exported, history=True)


@aio
async def test_files_import_is_one_change_in_one_turn() -> None:
    ws = await open_workspace()
    await ws.write("/src/a.py", "old")
    await ws.write("/other.txt", "stays")
    change = await ws.import_zip(
        zip_of({"src/a.py": b"new", "src/b.py": b"b", "docs/": b"", "__MACOSX/x": b"junk"}),
        turn="import-1",
    )
    assert change.turn == "import-1" and change.commit is not None
    assert {v.commit for v in change.versions} == {change.commit}
    assert await snapshot(ws) == {
        "/docs": None,
        "/other.txt": "stays",
        "/src": None,
        "/src/a.py": "new",
        "/src/b.py": "b",
    }
    await ws.undo_turn("import-1")
    assert await snapshot(ws) == {"/other.txt": "stays", "/src": None, "/src/a.py": "old"}


@aio
async def test_files_import_can_replace_everything() -> None:
    ws = await open_workspace()
    await ws.write("/old/x.txt", "x")
    await ws.write("/keep/y.txt", "old y")
    await ws.import_zip(zip_of({"files/keep/y.txt": b"new y"}), replace_all=True)
    assert await snapshot(ws) == {"/keep": None, "/keep/y.txt": "new y"}


@aio
async def test_import_rejections() -> None:
    ws = await open_workspace(max_file_size=4)
    with pytest.raises(InvalidArgument, match="not a zip"):
        await ws.import_zip(b"not a zip")
    with pytest.raises(InvalidPath):
        await ws.import_zip(zip_of({"../evil.txt": b"x"}))
    with pytest.raises(FileTooLarge):
        await ws.import_zip(zip_of({"big.txt": b"12345"}))
    await ws.write("/d/x", "x")
    with pytest.raises(NotAFile):
        await ws.import_zip(zip_of({"d": b"file"}))
    with pytest.raises(InvalidArgument, match="no history"):
        await ws.import_zip(zip_of({"a.txt": b"a"}), history=True)
    assert await snapshot(ws) == {"/d": None, "/d/x": "x"}


@aio
async def test_damaged_history_is_refused() -> None:
    ws = await sample()
    exported = await ws.export_zip(history=True)
    source = zipfile.ZipFile(io.BytesIO(exported))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as damaged:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("history/blobs/") and data[:1] == b"F":
                data = data + b"tampered"
            damaged.writestr(info, data)
    target = await open_workspace(MemoryStorage())
    with pytest.raises(CorruptData):
        await target.import_zip(buffer.getvalue(), history=True)
    assert await snapshot(target) == {}
