"""edit_current_editor_document: replaces the open file (recorded), or says clearly why it cannot."""

from __future__ import annotations

from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import TURN, call, context_with


async def test_replaces_the_open_document_as_a_recorded_change() -> None:
    context = await context_with({"notes/todo.md": "- old\n"}, editor_path="notes/todo.md")
    result = await call(context, "edit_current_editor_document", content="- new\n", instruction="update")
    assert result.ok
    assert result.message == (
        "Replaced the content of /notes/todo.md (1 line, 6 bytes). It is the document open in the editor."
    )
    assert await context.workspace.read_text("/notes/todo.md") == "- new\n"
    version = (await context.workspace.history("/notes/todo.md"))[-1]
    assert (version["turn"], version["author"]) == (TURN, "agent")


async def test_follows_the_editor_when_the_user_opens_another_file() -> None:
    context = await context_with({"a.md": "a", "b.md": "b"}, editor_path="/a.md")
    context.editor_path = "/b.md"
    await call(context, "edit_current_editor_document", content="B")
    assert (await context.workspace.read_text("/a.md"), await context.workspace.read_text("/b.md")) == (
        "a",
        "B",
    )


async def test_no_open_document() -> None:
    result = await call(await context_with(), "edit_current_editor_document", content="x")
    assert result.error_type == ToolErrorType.NOT_FOUND
    assert "no document is open" in result.message and "write_file" in result.message


async def test_open_document_deleted_meanwhile_or_binary() -> None:
    context = await context_with({"img.png": b"\x89PNG\r\n\x1a\n"}, editor_path="/gone.md")
    result = await call(context, "edit_current_editor_document", content="x")
    assert result.error_type == ToolErrorType.NOT_FOUND and "no longer exists" in result.message
    context.editor_path = "/img.png"
    result = await call(context, "edit_current_editor_document", content="x")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT and "binary" in result.message


async def test_empty_content_does_not_wipe_the_document() -> None:
    context = await context_with({"a.md": "keep"}, editor_path="/a.md")
    result = await call(context, "edit_current_editor_document", content="")
    assert result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert await context.workspace.read_text("/a.md") == "keep"
