"""File and folder operations on MemoryStorage, and each of their rejections."""

from __future__ import annotations

import pytest

from agentlite.workspace import (
    AlreadyExists,
    FileTooLarge,
    InvalidArgument,
    InvalidPath,
    MemoryStorage,
    NotADirectory,
    NotAFile,
    NotFound,
)
from tests.unit.workspace.helpers import aio, open_workspace, snapshot


@aio
async def test_write_creates_parents_and_reads_back() -> None:
    ws = await open_workspace()
    change = await ws.write("src/lib/a.ts", "export const a = 1;\n")
    assert change.commit == 1
    assert change.paths == ["/src", "/src/lib", "/src/lib/a.ts"]
    assert [v.op for v in change.versions] == ["create", "create", "create"]
    assert await ws.read_text("/src/lib/a.ts") == "export const a = 1;\n"
    assert await ws.read_text("/missing.txt") is None
    assert await ws.exists("/src/lib") and not await ws.exists("/nope")
    assert await ws.list("/") == [{"path": "/src", "kind": "dir"}]
    assert await ws.list("/", recursive=True) == [
        {"path": "/src", "kind": "dir"},
        {"path": "/src/lib", "kind": "dir"},
        {"path": "/src/lib/a.ts", "kind": "file"},
    ]


@aio
async def test_list_is_sorted_by_path_and_has_details() -> None:
    ws = await open_workspace()
    for name in ("b.txt", "a/z.txt", "a.txt", "c/"):
        if name.endswith("/"):
            await ws.create_folder(name)
        else:
            await ws.write(name, "x")
    assert [e["path"] for e in await ws.list("/")] == ["/a", "/a.txt", "/b.txt", "/c"]
    detailed = await ws.list("/a", details=True)
    assert detailed[0]["path"] == "/a/z.txt" and detailed[0]["size"] == 1 and detailed[0]["version"] == 1


@aio
async def test_write_same_content_records_nothing() -> None:
    ws = await open_workspace()
    await ws.write("/a.txt", "same")
    again = await ws.write("/a.txt", "same")
    assert again.commit is None and again.versions == []
    assert [h["op"] for h in await ws.history("/a.txt")] == ["create"]


@aio
async def test_create_fails_when_anything_exists() -> None:
    ws = await open_workspace()
    await ws.create("/a.txt", "one")
    with pytest.raises(AlreadyExists, match="already exists"):
        await ws.create("/a.txt", "two")
    await ws.create_folder("/d")
    with pytest.raises(NotAFile, match="is a folder"):
        await ws.create("/d", "x")
    assert await ws.read_text("/a.txt") == "one"


@aio
async def test_file_and_folder_cannot_share_a_path() -> None:
    ws = await open_workspace()
    await ws.write("/a", "file")
    with pytest.raises(NotADirectory, match="/a is a file"):
        await ws.write("/a/b.txt", "x")
    with pytest.raises(AlreadyExists, match="is a file"):
        await ws.create_folder("/a")
    await ws.create_folder("/d")
    with pytest.raises(NotAFile):
        await ws.write("/d", "x")
    with pytest.raises(NotADirectory):
        await ws.list("/a")
    with pytest.raises(NotFound):
        await ws.list("/nope")


@aio
async def test_create_folder_is_idempotent() -> None:
    ws = await open_workspace()
    first = await ws.create_folder("/x/y")
    assert first.paths == ["/x", "/x/y"]
    again = await ws.create_folder("/x/y")
    assert again.commit is None


@aio
async def test_size_limit() -> None:
    ws = await open_workspace(max_file_size=10)
    await ws.write("/ok.txt", "0123456789")
    with pytest.raises(FileTooLarge, match="limit is 10 bytes"):
        await ws.write("/big.txt", "01234567890")
    with pytest.raises(FileTooLarge):
        await ws.edit("/ok.txt", "0", "00")
    assert await ws.read_text("/ok.txt") == "0123456789"


@aio
async def test_invalid_paths_and_arguments_are_rejected() -> None:
    ws = await open_workspace()
    with pytest.raises(InvalidPath):
        await ws.write("../x", "a")
    with pytest.raises(InvalidPath, match="needs a name"):
        await ws.write("/", "a")
    with pytest.raises(InvalidPath, match="root cannot be deleted"):
        await ws.delete("/")
    with pytest.raises(InvalidArgument):
        await ws.write("/a.txt", 12)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match="UTF-8"):
        await ws.write("/a.txt", "\udcff")


@aio
async def test_binary_files_report_size_and_type() -> None:
    ws = await open_workspace()
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    await ws.write("/img/logo.png", png)
    assert await ws.read_bytes("/img/logo.png") == png
    page = await ws.read("/img/logo.png")
    assert page.binary and page.size == len(png) and page.mime == "image/png"
    assert "binary file, 264 bytes, type image/png" in page.format()
    stat = await ws.stat("/img/logo.png")
    assert stat is not None and stat["binary"] is True
    with pytest.raises(NotAFile, match="binary"):
        await ws.edit("/img/logo.png", "a", "b")
    assert "\ufffd" in (await ws.read_text("/img/logo.png") or "")


@aio
async def test_read_pages() -> None:
    ws = await open_workspace()
    await ws.write("/f.txt", "".join(f"line {i}\n" for i in range(1, 451)))
    first = await ws.read("/f.txt")
    assert (first.start_line, first.end_line, first.total_lines, first.next_start_line) == (1, 200, 450, 201)
    assert first.lines[0] == "line 1" and not first.eof
    assert first.numbered().splitlines()[1] == "     2\tline 2"
    last = await ws.read("/f.txt", start_line=401, max_lines=200)
    assert (last.end_line, last.next_start_line, last.eof) == (450, None, True)
    assert "(end of file)" in last.format()
    assert "start_line=201" in first.format()
    with pytest.raises(InvalidArgument, match="past the end"):
        await ws.read("/f.txt", start_line=451)
    with pytest.raises(InvalidArgument):
        await ws.read("/f.txt", start_line=0)
    with pytest.raises(NotFound):
        await ws.read("/nope.txt")
    await ws.write("/empty.txt", "")
    empty = await ws.read("/empty.txt")
    assert empty.total_lines == 0 and empty.eof and "empty file" in empty.format()
    await ws.write("/crlf.txt", "a\r\nb")
    assert (await ws.read("/crlf.txt")).lines == ["a", "b"]
    await ws.write("/long.txt", "x" * 5000)
    assert "3000 more characters" in (await ws.read("/long.txt")).lines[0]


@aio
async def test_delete_file_and_folder() -> None:
    ws = await open_workspace()
    await ws.write("/d/a.txt", "a")
    await ws.write("/d/e/b.txt", "b")
    await ws.write("/keep.txt", "k")
    await ws.delete("/d/a.txt")
    assert await ws.read_text("/d/a.txt") is None
    change = await ws.delete("/d")
    assert change.paths == ["/d", "/d/e", "/d/e/b.txt"]
    assert await snapshot(ws) == {"/keep.txt": "k"}
    with pytest.raises(NotFound):
        await ws.delete("/d")


@aio
async def test_move_and_rename_keep_history() -> None:
    ws = await open_workspace()
    await ws.write("/src/a.py", "v1")
    await ws.write("/src/a.py", "v2")
    await ws.write("/src/sub/b.py", "b")
    await ws.move("/src", "/lib")
    assert await snapshot(ws) == {"/lib": None, "/lib/a.py": "v2", "/lib/sub": None, "/lib/sub/b.py": "b"}
    assert [h["op"] for h in await ws.history("/lib/a.py")] == ["create", "write", "move"]
    assert (await ws.history("/lib/a.py"))[-1]["source"] == "/src/a.py"
    await ws.rename("/lib/a.py", "main.py")
    assert await ws.read_text("/lib/main.py") == "v2"
    assert len(await ws.history("/lib/main.py")) == 4
    await ws.create_folder("/dest")
    await ws.move("/lib/main.py", "/dest")  # into an existing folder
    assert await ws.read_text("/dest/main.py") == "v2"
    await ws.move("/lib/sub/b.py", "/new/place/")  # trailing slash: into, parents created
    assert await ws.read_text("/new/place/b.py") == "b"
    await ws.move("/dest/main.py", "/deeper/x.py")
    assert await ws.read_text("/deeper/x.py") == "v2"


@aio
async def test_move_rejections() -> None:
    ws = await open_workspace()
    await ws.write("/a/x.txt", "x")
    await ws.write("/b.txt", "b")
    with pytest.raises(NotFound):
        await ws.move("/nope", "/z")
    with pytest.raises(InvalidPath, match="into itself"):
        await ws.move("/a", "/a/inner")
    with pytest.raises(AlreadyExists):
        await ws.move("/b.txt", "/a/x.txt")
    with pytest.raises(AlreadyExists):
        await ws.rename("/b.txt", "a")
    with pytest.raises(InvalidPath):
        await ws.rename("/b.txt", "c/d")
    with pytest.raises(NotADirectory):
        await ws.move("/a/x.txt", "/b.txt/y.txt")
    assert (await ws.move("/b.txt", "/b.txt")).commit is None


@aio
async def test_reopen_sees_the_same_workspace() -> None:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    await ws.write("/a/b.txt", "hello")
    await ws.write("/bin", b"\x00\x01")
    await ws.delete("/a/b.txt")
    again = await open_workspace(storage)
    assert await snapshot(again) == await snapshot(ws)
    assert await again.read_bytes("/bin") == b"\x00\x01"
    assert [h["op"] for h in await again.history("/a/b.txt")] == ["create", "delete"]


@aio
async def test_listener_gets_every_commit() -> None:
    seen: list[dict] = []
    ws = await open_workspace(listener=seen.append)
    remove = ws.add_listener(lambda change: 1 / 0)  # a broken listener does not break commits
    await ws.write("/a.txt", "a", turn="t1", author="agent")
    remove()
    await ws.delete("/a.txt")
    assert seen[0] == {
        "type": "commit",
        "commit": 1,
        "turn": "t1",
        "author": "agent",
        "paths": ["/a.txt"],
        "note": None,
    }
    assert seen[1]["paths"] == ["/a.txt"] and seen[1]["author"] == "user"
