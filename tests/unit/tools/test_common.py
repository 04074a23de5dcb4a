"""Workspace errors as tool results: every storage failure has its errorType and a hint that says
what to do; none of them is `internal` by accident, and none is reported as a success."""

from __future__ import annotations

import pytest

from agentlite.tools.common import ERROR_TYPES, tool_error
from agentlite.tools.result import ToolErrorType, ToolResult
from agentlite.workspace import (
    CorruptData,
    StaleState,
    StorageClosed,
    StorageError,
    StorageFull,
    WorkspaceError,
    workspace_errors,
)
from tests.unit.tools.conftest import call, context_with, workspace_with


@pytest.mark.parametrize(
    ("error", "error_type", "words"),
    [
        (StorageFull("quota exceeded"), ToolErrorType.TOO_LARGE, "Browser storage is full: nothing of"),
        (StorageClosed("closed"), ToolErrorType.DENIED, "tell the user to reload this page"),
        (StaleState("another tab"), ToolErrorType.CONFLICT, "read the file again and retry"),
        (StorageError("disk gone"), ToolErrorType.INTERNAL, "disk gone\nNothing of this call was saved"),
        (CorruptData("bad checksum"), ToolErrorType.INTERNAL, "bad checksum"),
    ],
)
async def test_storage_errors_have_their_type_and_hint(
    error: WorkspaceError, error_type: ToolErrorType, words: str
) -> None:
    result = ToolResult.from_error(await tool_error(await workspace_with(), error))
    assert (result.code, result.error_type) == (1, error_type)
    assert words in result.message


async def test_storage_full_points_to_export_and_deleting_files() -> None:
    result = ToolResult.from_error(await tool_error(await workspace_with(), StorageFull("full")))
    assert "storage is full" in result.message and "Do not retry" in result.message
    assert "exporting the workspace" in result.message and "deleting files" in result.message


def test_every_workspace_error_code_is_mapped() -> None:
    codes = {
        cls.code
        for cls in vars(workspace_errors).values()
        if isinstance(cls, type) and issubclass(cls, WorkspaceError) and cls is not WorkspaceError
    }
    assert codes <= set(ERROR_TYPES)


async def test_a_closed_storage_denies_the_call_through_a_tool() -> None:
    context = await context_with({"a.txt": "a"})

    async def closed(_batch: object) -> None:
        raise StorageClosed("the workspace database is closed (newer version); reload the page")

    context.workspace.storage.commit = closed  # type: ignore[method-assign]
    result = await call(context, "write_file", path="a.txt", content="b")
    assert result.error_type == ToolErrorType.DENIED
    assert await context.workspace.read_text("/a.txt") == "a"
