"""create_file, write_file, delete_file, move_file, rename_file, create_folder: changes, history, errors."""

from __future__ import annotations

import pytest

from agentlite.tools.result import ToolErrorType
from agentlite.workspace import MemoryStorage, Workspace
from agentlite.workspace.storage import FailureKind
from tests.unit.tools.conftest import TURN, call, context_with

TREE = {"src/a.ts": "const a = 1;\n", "src/lib/b.ts": "b\n", "docs/": ""}


async def last_version(workspace: Workspace, path: str) -> dict:
    return (await workspace.history(path))[-1]


# --- create_file ---------------------------------------------------------------------------------


async def test_create_file_with_parents_recorded_in_the_turn_by_the_agent() -> None:
    context = await context_with(TREE)
    result = await call(context, "create_file", path="src/new/c.ts", content="one\ntwo\n")
    assert result.ok
    assert result.message == "Created /src/new/c.ts (2 lines, 8 bytes)."
    assert result.data["path"] == "/src/new/c.ts" and result.data["version"] == 1
    assert await context.workspace.read_text("/src/new/c.ts") == "one\ntwo\n"
    version = await last_version(context.workspace, "/src/new/c.ts")
    assert (version["op"], version["turn"], version["author"]) == ("create", TURN, "agent")


async def test_file_create_alias() -> None:
    context = await context_with()
    assert (await call(context, "file_create", path="x.md", content="# x")).ok


async def test_create_existing_file_is_a_conflict_that_names_the_way_out() -> None:
    context = await context_with(TREE)
    result = await call(context, "create_file", path="src/a.ts", content="x")
    assert result.error_type == ToolErrorType.CONFLICT
    assert "use write_file" in result.message and "edit_file" in result.message
    assert await context.workspace.read_text("/src/a.ts") == "const a = 1;\n"


async def test_create_over_a_folder_or_at_the_root() -> None:
    context = await context_with(TREE)
    result = await call(context, "create_file", path="docs", content="x")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "is a folder" in result.message
    result = await call(context, "create_file", path="/", content="x")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "needs a name" in result.message


async def test_create_under_a_file_fails_cleanly() -> None:
    context = await context_with(TREE)
    result = await call(context, "create_file", path="src/a.ts/inner.ts", content="x")
    assert not result.ok and result.error_type in (ToolErrorType.CONFLICT, ToolErrorType.INVALID_ARGUMENT)


async def test_create_needs_content() -> None:
    context = await context_with()
    result = await call(context, "create_file", path="x.md")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "`content`" in result.message


async def test_too_large_file() -> None:
    context = await context_with()
    context.workspace.max_file_size = 10
    result = await call(context, "create_file", path="x.md", content="x" * 11)
    assert result.error_type == ToolErrorType.TOO_LARGE


@pytest.mark.parametrize(
    ("kind", "error_type", "words"),
    [
        ("quota", ToolErrorType.TOO_LARGE, "Browser storage is full: nothing of this call was saved"),
        ("io", ToolErrorType.INTERNAL, "Nothing of this call was saved. Try once more"),
    ],
)
async def test_a_storage_failure_is_a_result_and_stores_nothing(
    kind: FailureKind, error_type: ToolErrorType, words: str
) -> None:
    context = await context_with(TREE)
    storage = context.workspace.storage
    assert isinstance(storage, MemoryStorage)
    storage.fail_commit(kind=kind)
    result = await call(context, "create_file", path="n.txt", content="n")
    assert result.error_type == error_type and words in result.message
    assert not await context.workspace.exists("/n.txt")
    assert (await call(context, "create_file", path="n.txt", content="n")).ok  # the next call works


# --- write_file ----------------------------------------------------------------------------------


async def test_write_replaces_an_existing_file() -> None:
    context = await context_with(TREE)
    result = await call(context, "write_file", path="src/a.ts", content="const a = 2;\n")
    assert result.message == "Replaced the content of /src/a.ts (1 line, 13 bytes)."
    assert result.data["version"] == 2
    assert await context.workspace.read_text("src/a.ts") == "const a = 2;\n"


async def test_write_creates_and_update_file_alias() -> None:
    context = await context_with()
    result = await call(context, "update_file", path="/src/Button.tsx", content="x")
    assert result.message.startswith("Created /src/Button.tsx")


async def test_write_same_content_changes_nothing() -> None:
    context = await context_with(TREE)
    result = await call(context, "write_file", path="src/a.ts", content="const a = 1;\n")
    assert result.ok and "nothing changed" in result.message
    assert len(await context.workspace.history("/src/a.ts")) == 1


async def test_write_empty_content_never_wipes_a_file() -> None:
    context = await context_with(TREE)
    result = await call(context, "write_file", path="src/a.ts", content="")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "delete_file" in result.message
    assert await context.workspace.read_text("src/a.ts") == "const a = 1;\n"
    assert (await call(context, "write_file", path="empty.txt", content="")).ok


async def test_write_to_a_folder() -> None:
    context = await context_with(TREE)
    result = await call(context, "write_file", path="src", content="x")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "folder" in result.message


# --- delete_file ---------------------------------------------------------------------------------


async def test_delete_file_is_recorded_and_undoable() -> None:
    context = await context_with(TREE)
    result = await call(context, "delete_file", path="src/a.ts")
    assert result.message == "Deleted /src/a.ts. The user can restore it from the history."
    assert not await context.workspace.exists("/src/a.ts")
    await context.workspace.undo_turn(TURN)
    assert await context.workspace.read_text("/src/a.ts") == "const a = 1;\n"


async def test_delete_folder_with_everything_in_it() -> None:
    context = await context_with(TREE)
    result = await call(context, "delete_file", path="src")
    assert result.message.startswith("Deleted the folder /src and the 2 files in it.")
    assert result.data["files"] == 2
    assert await context.workspace.list("/") == [{"path": "/docs", "kind": "dir"}]


async def test_delete_missing_and_root() -> None:
    context = await context_with(TREE)
    result = await call(context, "delete_file", path="src/A.ts")
    assert result.error_type == ToolErrorType.NOT_FOUND and "/src/a.ts" in result.message
    result = await call(context, "delete_file", path="/")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "root" in result.message


# --- move_file / rename_file / create_folder -----------------------------------------------------


async def test_move_file_keeps_history() -> None:
    context = await context_with(TREE)
    result = await call(context, "move_file", source="src/a.ts", destination="lib/a2.ts")
    assert result.message == "Moved /src/a.ts to /lib/a2.ts."
    assert result.data["path"] == "/lib/a2.ts"
    assert [v["op"] for v in await context.workspace.history("/lib/a2.ts")] == ["create", "move"]


async def test_move_into_an_existing_folder_and_a_folder_with_its_content() -> None:
    context = await context_with(TREE)
    assert (await call(context, "move_file", source="src/a.ts", destination="docs")).data[
        "path"
    ] == "/docs/a.ts"
    result = await call(context, "move_file", source="src/lib", destination="docs/")
    assert result.message == "Moved /src/lib to /docs/lib (with the 1 entry inside)."
    assert await context.workspace.read_text("/docs/lib/b.ts") == "b\n"


async def test_move_onto_an_existing_file_is_a_conflict() -> None:
    context = await context_with({**TREE, "other.ts": "o"})
    result = await call(context, "move_file", source="src/a.ts", destination="other.ts")
    assert result.error_type == ToolErrorType.CONFLICT and "already exists" in result.message


async def test_move_missing_source_and_folder_into_itself() -> None:
    context = await context_with(TREE)
    result = await call(context, "move_file", source="src/x.ts", destination="y.ts")
    assert result.error_type == ToolErrorType.NOT_FOUND and "Nearest" in result.message
    result = await call(context, "move_file", source="src", destination="src/lib/inner")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "into itself" in result.message


async def test_rename_file_and_bad_names() -> None:
    context = await context_with(TREE)
    result = await call(context, "rename_file", path="src/a.ts", new_name="alpha.ts")
    assert result.message == "Renamed /src/a.ts to /src/alpha.ts."
    result = await call(context, "rename_file", path="src/alpha.ts", new_name="x/y.ts")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "single name" in result.message
    result = await call(context, "rename_file", path="src/lib", new_name="lib")
    assert result.ok and "nothing changed" in result.message


async def test_create_folder_new_existing_and_over_a_file() -> None:
    context = await context_with(TREE)
    result = await call(context, "create_folder", path="src/components/ui")
    assert result.message == "Created the folder /src/components/ui."
    result = await call(context, "create_folder", path="docs")
    assert result.ok and "already exists" in result.message
    result = await call(context, "create_folder", path="src/a.ts")
    assert result.error_type == ToolErrorType.CONFLICT


async def test_every_change_of_a_turn_undoes_together() -> None:
    context = await context_with(TREE)
    await call(context, "create_file", path="n.ts", content="n")
    await call(context, "write_file", path="src/a.ts", content="changed")
    await call(context, "rename_file", path="src/lib/b.ts", new_name="c.ts")
    await context.workspace.undo_turn(TURN)
    assert not await context.workspace.exists("/n.ts")
    assert await context.workspace.read_text("/src/a.ts") == "const a = 1;\n"
    assert await context.workspace.read_text("/src/lib/b.ts") == "b\n"
