"""Every import checks declared sizes against its budget before inflating, inflates within the per-file
limit, holds a blob named many times once, and leaves the workspace as it was when it refuses.

The zips are built here (`buildsys.testing.import_bombs`); memory is measured with tracemalloc (CPython's own
allocations, which is where inflated bytes live), never time.
"""

from __future__ import annotations

import io
import re
import tracemalloc
import zipfile
import zlib
from collections.abc import Awaitable

import pytest

from agentlite.workspace import (
    CorruptData,
    FileTooLarge,
    InvalidArgument,
    InvalidPath,
    Workspace,
    WorkspaceError,
)
from buildsys.testing.import_bombs import FILE_MODE, GitObjects, deflate_zip, git_fan_zip, git_zip
from tests.unit.workspace.helpers import aio, open_workspace, snapshot

MB = 1024 * 1024
NOT_INFLATED = 4 * MB  # well under any bomb here: what is left is modules imported and the zip read


async def peak_of(work: Awaitable[object]) -> tuple[object, int]:
    """(the result or the WorkspaceError raised, the peak of memory allocated while it ran)."""
    tracemalloc.start()
    try:
        result: object = await work
    except WorkspaceError as exc:
        result = exc
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result, peak


async def lived_in() -> Workspace:
    ws = await open_workspace()
    await ws.write("/keep.txt", "mine\n", turn="t1", author="user")
    return ws


async def refused(ws: Workspace, data: bytes, error: type[WorkspaceError], match: str) -> int:
    """Import `data`, expect `error` matching `match` and the workspace unchanged; the memory peak."""
    before = (await snapshot(ws), ws.tree.meta)
    result, peak = await peak_of(ws.import_zip(data))
    assert isinstance(result, error), result
    assert re.search(match, str(result)), str(result)
    assert (await snapshot(ws), ws.tree.meta) == before
    return peak


@aio
async def test_a_git_tree_naming_one_blob_450_times_is_refused_before_inflating_it() -> None:
    ws = await lived_in()
    peak = await refused(ws, git_zip(8 * MB, 450), InvalidArgument, r"more than 512\.0 MB of files")
    assert peak < NOT_INFLATED


@aio
async def test_a_blob_named_30_times_is_inflated_held_and_stored_once() -> None:
    ws = await lived_in()
    change, peak = await peak_of(ws.import_zip(git_zip(8 * MB, 30)))
    assert not isinstance(change, WorkspaceError), change
    listing = await ws.list("/", recursive=True, details=True)
    assert len({e["sha256"] for e in listing if e["path"] != "/keep.txt"}) == 1
    assert sum(e["size"] for e in listing if e["path"] != "/keep.txt") == 30 * 8 * MB
    assert len(ws.storage.data["blobs"]) == 2  # type: ignore[attr-defined]
    assert peak < 3 * 8 * MB  # 30 copies would be 240 MB


@aio
async def test_a_git_object_larger_than_its_header_says_is_refused_within_the_file_limit() -> None:
    ws = await lived_in()
    peak = await refused(ws, git_zip(64 * MB, 1, header_size=10), InvalidArgument, r"cannot be read")
    assert peak < 3 * 10 * MB


@aio
async def test_a_git_blob_declared_over_the_file_limit_is_refused_before_inflating() -> None:
    ws = await lived_in()
    peak = await refused(ws, git_zip(64 * MB, 1), FileTooLarge, r"/f00000\.bin .* is 64\.0 MB")
    assert peak < NOT_INFLATED


@aio
async def test_a_tree_naming_one_subtree_again_and_again_stops_at_the_file_count() -> None:
    ws = await lived_in()
    await refused(ws, git_fan_zip(16, 5), InvalidArgument, r"more than 100,000 files and folders")


@aio
async def test_a_git_tree_with_two_files_at_one_path_is_refused() -> None:
    objects = GitObjects()
    one, two = objects.add(b"blob", b"one"), objects.add(b"blob", b"two")
    root = objects.add(b"tree", b"".join(FILE_MODE + b" a.txt\0" + sha for sha in (one, two)))
    await refused(await lived_in(), objects.zip(root), InvalidArgument, r"two files at /a\.txt")


@aio
async def test_a_git_tree_naming_dot_dot_is_refused() -> None:
    objects = GitObjects()
    root = objects.add(b"tree", FILE_MODE + b" ..\0" + objects.add(b"blob", b"x"))
    await refused(await lived_in(), objects.zip(root), InvalidPath, r"'\.\.' is not a file name")


@aio
async def test_names_that_differ_only_in_case_are_imported_and_named_in_the_change() -> None:
    objects = GitObjects()
    blob = objects.add(b"blob", b"x")
    ws = await lived_in()
    await ws.import_zip(objects.zip(objects.tree([(FILE_MODE, b"A.txt", blob), (FILE_MODE, b"a.txt", blob)])))
    assert {"/A.txt", "/a.txt"} <= set(await snapshot(ws))
    note = (await ws.history("/a.txt"))[-1]["note"]
    assert "differ only in case" in note and "/A.txt and /a.txt" in note


@aio
async def test_a_zip_member_declared_over_the_file_limit_is_refused_before_inflating() -> None:
    ws = await lived_in()
    peak = await refused(ws, deflate_zip(300 * MB), FileTooLarge, r"/zeros\.bin .* is 300\.0 MB")
    assert peak < NOT_INFLATED


@aio
async def test_a_zip_member_larger_than_its_directory_says_is_refused() -> None:
    ws = await lived_in()
    peak = await refused(ws, deflate_zip(300 * MB, declared=1000), CorruptData, r"/zeros\.bin .* damaged")
    assert peak < NOT_INFLATED


@aio
async def test_a_zip_with_two_members_at_one_path_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("files/a.txt", b"one")
        with pytest.warns(UserWarning):
            archive.writestr("files/a.txt", b"two")
    await refused(await lived_in(), buffer.getvalue(), InvalidArgument, r"two files at /a\.txt")


@aio
async def test_a_git_blob_that_does_not_match_its_id_is_refused() -> None:
    objects = GitObjects()
    blob = objects.add(b"blob", b"the real content")
    root = objects.tree([(FILE_MODE, b"a.txt", blob)])
    loose = f".git/objects/{blob.hex()[:2]}/{blob.hex()[2:]}"
    objects.files[loose] = zlib.compress(b"blob 16\0the fake content")  # same size, other bytes
    await refused(await lived_in(), objects.zip(root), InvalidArgument, r"/a\.txt .* does not match its id")
