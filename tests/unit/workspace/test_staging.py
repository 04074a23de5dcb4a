"""A local folder's import in batches: staged in parts, committed as ONE recorded change by the user."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import pytest

from agentlite.demo import demo_transport
from agentlite.limits import IMPORT_FILES
from agentlite.service import AgentService
from agentlite.workspace import FileTooLarge, InvalidArgument, InvalidPath, NotAFile
from agentlite.workspace.staging import ImportStaging
from tests.unit.test_service import drain
from tests.unit.workspace.helpers import aio, open_workspace, snapshot


@aio
async def test_import_files_is_one_change_with_empty_folders() -> None:
    ws = await open_workspace()
    await ws.write("/keep.txt", "kept")
    change = await ws.import_files({"/src/a.py": b"a\n", "src/b/c.txt": b"c"}, ["/empty"], author="user")
    assert await snapshot(ws) == {
        "/keep.txt": "kept",
        "/src": None,
        "/src/a.py": "a\n",
        "/src/b": None,
        "/src/b/c.txt": "c",
        "/empty": None,
    }
    assert change.author == "user"
    assert len({h["turn"] for p in ("/src/a.py", "/src/b/c.txt") for h in await ws.history(p)}) == 1


@aio
async def test_a_folder_gone_from_disk_goes_only_with_everything_below_it() -> None:
    ws = await open_workspace()
    await ws.import_files({"/old/a.txt": b"a", "/kept/b.txt": b"b", "/kept/new.txt": b"n"}, ["/old/empty"])
    gone = ["/old/a.txt", "/old/empty", "/old", "/kept/b.txt", "/kept"]
    await ws.import_files({}, deleted=gone, author="disk")
    assert await snapshot(ws) == {"/kept": None, "/kept/new.txt": "n"}  # the disk never saw new.txt


@aio
async def test_import_files_refuses_a_file_where_a_folder_is() -> None:
    ws = await open_workspace()
    await ws.create_folder("/src")
    before = await snapshot(ws)
    with pytest.raises(NotAFile):
        await ws.import_files({"/src": b"x", "/other.txt": b"y"})
    assert await snapshot(ws) == before


def test_staging_checks_paths_sizes_and_the_total_at_once() -> None:
    staging = ImportStaging(max_bytes=10)
    key = staging.begin()
    staging.add(key, {"a.txt": b"12345"}, [], max_file_size=100)
    with pytest.raises(InvalidPath):
        staging.add(key, {"/a/../../b": b""}, [], max_file_size=100)
    staged = staging.add(key, {"/a.txt": b"123"}, ["/d"], max_file_size=100)  # the same file again
    assert staged.size == 3 and staged.folders == {"/d"}
    with pytest.raises(FileTooLarge):
        staging.add(key, {"/big": b"x" * 101}, [], max_file_size=100)
    with pytest.raises(InvalidArgument, match="no import"):
        staging.take(key)  # a failed batch drops the whole import
    key = staging.begin()
    with pytest.raises(InvalidArgument, match="over"):
        staging.add(key, {"/a": b"x" * 6, "/b": b"y" * 6}, [], max_file_size=100)


def test_staging_refuses_more_files_than_one_import_takes() -> None:
    staging = ImportStaging()
    key = staging.begin()
    batch = {f"/f{n}": b"" for n in range(IMPORT_FILES)}
    staging.add(key, batch, [], max_file_size=100)
    with pytest.raises(InvalidArgument, match="more than 100,000 files"):
        staging.add(key, {"/one-more": b""}, [], max_file_size=100)
    with pytest.raises(InvalidArgument, match="no import"):
        staging.take(key)


def test_staging_drops_the_oldest_of_too_many_unfinished_imports() -> None:
    staging = ImportStaging()
    first = staging.begin()
    for _ in range(4):
        staging.begin()
    with pytest.raises(InvalidArgument):
        staging.take(first)


def _call(service: AgentService, call_id: int, method: str, args: dict[str, Any]) -> None:
    service.handle(json.dumps({"type": "call", "id": call_id, "method": method, "args": args}))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_the_page_imports_a_folder_in_batches_as_one_change() -> None:
    posted: list[dict[str, Any]] = []

    async def scenario() -> None:
        ws = await open_workspace()
        service = AgentService(posted.append, ws, lambda _s: demo_transport(delay=0))
        _call(service, 1, "vfs.importStart", {})
        await drain(service)
        key = next(m["value"] for m in posted if m.get("id") == 1)
        _call(
            service,
            2,
            "vfs.importAdd",
            {"id": key, "files": [{"path": "/a.txt", "size": 1}], "data": _b64(b"A")},
        )
        files = [{"path": "/s/b.bin", "size": 2}, {"path": "/s/empty.txt", "size": 0}]
        _call(
            service, 3, "vfs.importAdd", {"id": key, "files": files, "data": _b64(b"\0B"), "folders": ["/e"]}
        )
        bad = [{"path": "/c.txt", "size": 5}]
        _call(service, 5, "vfs.importAdd", {"id": key, "files": bad, "data": _b64(b"1234")})
        await drain(service)
        assert await ws.list("/") == []  # nothing lands before the end
        _call(service, 4, "vfs.importFinish", {"id": key})
        await drain(service)
        assert await snapshot(ws) == {
            "/a.txt": "A",
            "/s": None,
            "/s/b.bin": "\0B",
            "/s/empty.txt": "",
            "/e": None,
        }
        assert await ws.read_bytes("/s/b.bin") == b"\0B"
        commits = {h["turn"] for h in await ws.history("/a.txt")} | {
            h["turn"] for h in await ws.history("/s/b.bin")
        }
        assert len(commits) == 1

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m.get("type") == "reply"}
    assert replies[3]["value"] == {"files": 3, "bytes": 3}
    assert replies[5]["ok"] is False and "do not add up" in replies[5]["error"]
    assert replies[4]["ok"] and replies[4]["value"]["author"] == "user"


def test_changes_from_an_opened_folder_come_in_by_disk_with_deletions() -> None:
    posted: list[dict[str, Any]] = []

    async def scenario() -> None:
        ws = await open_workspace()
        await ws.write("/old.txt", "gone on disk")
        await ws.write("/kept.txt", "same")
        service = AgentService(posted.append, ws, lambda _s: demo_transport(delay=0))
        sha = (await ws.stat("/kept.txt") or {})["sha256"]
        old = (await ws.stat("/old.txt") or {})["sha256"]
        plan_args = {
            "disk": {"/kept.txt": sha, "/new.txt": "n"},
            "synced": {"/kept.txt": sha, "/old.txt": old},
        }
        _call(service, 1, "vfs.mirrorPlan", plan_args)
        _call(service, 2, "vfs.importStart", {})
        await drain(service)
        key = next(m["value"] for m in posted if m.get("id") == 2)
        _call(
            service,
            3,
            "vfs.importAdd",
            {"id": key, "files": [{"path": "/new.txt", "size": 1}], "data": _b64(b"N")},
        )
        _call(service, 4, "vfs.importFinish", {"id": key, "disk": True, "deleted": ["/old.txt"]})
        await drain(service)
        assert await snapshot(ws) == {"/kept.txt": "same", "/new.txt": "N"}
        assert [h["author"] for h in await ws.history("/old.txt")] == ["user", "disk"]

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m.get("type") == "reply"}
    assert replies[1]["value"]["from_disk"] == ["/new.txt"]
    assert replies[1]["value"]["delete_in_workspace"] == ["/old.txt"]
    assert replies[1]["value"]["conflicts"] == []
    assert replies[4]["value"]["author"] == "disk"
