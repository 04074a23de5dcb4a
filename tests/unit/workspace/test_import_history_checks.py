"""An imported history is checked whole before a byte of it is stored: declared sizes against the
budget, records against each other, every content inflated within the per-file limit and hashed. Any
problem refuses it, names what is wrong and leaves the (empty) workspace as it was."""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentlite.workspace import Workspace, WorkspaceError
from buildsys.testing.import_bombs import HistoryFile, history_zip, zeros_zlib, zip_members
from tests.unit.workspace.helpers import PROFILE, aio, open_workspace, snapshot

MB = 1024 * 1024


async def refused(data: bytes, match: str) -> int:
    """Import the history `data` into an empty workspace: refused with `match` named, nothing stored; the
    memory peak while it ran."""
    ws = await open_workspace()
    tracemalloc.start()
    try:
        with pytest.raises(WorkspaceError, match=match):
            await ws.import_zip(data, history=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert await snapshot(ws) == {}
    assert ws.storage.data == {} or not any(ws.storage.data.values())  # type: ignore[attr-defined]
    return peak


@aio
async def test_a_sound_one_file_history_imports() -> None:
    ws = await open_workspace()
    await ws.import_zip(history_zip(HistoryFile()), history=True)
    assert await snapshot(ws) == {"/a.txt": "hello\n"}
    assert await ws.check() == []


@aio
async def test_two_live_entries_at_one_path_are_refused() -> None:
    await refused(history_zip(HistoryFile(paths=("/a.txt", "/a.txt"))), r"2 live entries at /a\.txt")


@aio
async def test_a_version_whose_parent_is_missing_is_refused() -> None:
    await refused(history_zip(HistoryFile(parent=7)), r"/a\.txt version 1: its parent 7 is missing")


@aio
async def test_content_that_does_not_match_its_sha256_is_refused() -> None:
    await refused(history_zip(HistoryFile(sha="ab" * 32)), r"content abababababab does not match its sha256")


@aio
async def test_a_version_declaring_a_size_over_the_file_limit_is_refused_before_inflating() -> None:
    await refused(history_zip(HistoryFile(declared=3 * 1024 * MB)), r"/a\.txt .* is 3072\.0 MB; the limit")


@aio
async def test_content_longer_or_shorter_than_its_versions_say_is_refused() -> None:
    await refused(history_zip(HistoryFile(declared=2)), r"is 6 bytes, its versions say 2")


@aio
async def test_a_deflate_bomb_blob_inflates_no_further_than_the_file_limit() -> None:
    bomb = HistoryFile(content=b"", stored=b"Z" + zeros_zlib(200 * MB), declared=0)
    peak = await refused(history_zip(bomb), r"inflates to more than 10\.0 MB")
    assert peak < 3 * 10 * MB  # the 200 MB were never made


@aio
async def test_a_blob_member_over_the_file_limit_is_refused_without_reading_it_whole() -> None:
    content = bytes(64 * MB)  # 64 KB in the zip
    peak = await refused(
        history_zip(HistoryFile(content=content, stored=b"F" + content)), r"is over 10\.\d MB"
    )
    assert peak < 3 * 10 * MB


CORRUPTIONS = (
    "drop a version",
    "a second entry at a path",
    "a missing parent",
    "a changed blob",
    "drop a blob",
)


async def _exported(texts: list[str]) -> bytes:
    ws = await open_workspace()
    for n, text in enumerate(texts):
        await ws.write(f"/f{n % 3}.txt", text, turn=f"t{n}", author="agent")
    return await ws.export_zip(history=True)


def _corrupt(data: bytes, how: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    versions = [json.loads(line) for line in members["history/versions.jsonl"].splitlines()]
    entries = [json.loads(line) for line in members["history/entries.jsonl"].splitlines()]
    blobs = sorted(name for name in members if name.startswith("history/blobs/"))
    if how == "drop a version":
        versions = versions[:-1]
    elif how == "a second entry at a path":
        entries.append({**entries[0], "id": 999})
    elif how == "a missing parent":
        versions[0]["parent"] = 99
    elif how == "a changed blob":
        members[blobs[0]] = b"F" + b"changed"
    else:
        del members[blobs[0]]
    members["history/versions.jsonl"] = b"".join(json.dumps(v).encode() + b"\n" for v in versions)
    members["history/entries.jsonl"] = b"".join(json.dumps(e).encode() + b"\n" for e in entries)
    return zip_members(members)


@PROFILE
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=6), st.sampled_from(CORRUPTIONS))
@aio
async def test_any_corruption_of_an_exported_history_is_refused_and_the_sound_one_imports(
    texts: list[str], how: str
) -> None:
    exported = await _exported(texts)
    sound: Workspace = await open_workspace()
    await sound.import_zip(exported, history=True)
    assert await sound.export_zip(history=True) == exported
    await refused(_corrupt(exported, how), "damaged")


@aio
async def test_a_history_replaces_a_workspace_in_one_commit_and_a_damaged_one_leaves_it_whole() -> None:
    ws = await open_workspace()
    await ws.write("/mine.txt", "mine\n", turn="t1", author="user")
    before = (await snapshot(ws), await ws.history("/mine.txt"))
    with pytest.raises(WorkspaceError, match=r"2 live entries at /a\.txt"):
        await ws.import_zip(
            history_zip(HistoryFile(paths=("/a.txt", "/a.txt"))), history=True, replace_all=True
        )
    assert (await snapshot(ws), await ws.history("/mine.txt")) == before
    await ws.import_zip(history_zip(HistoryFile()), history=True, replace_all=True)
    assert await snapshot(ws) == {"/a.txt": "hello\n"}
    assert await ws.history("/mine.txt") == [] and await ws.check() == []
