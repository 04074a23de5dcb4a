"""edit_current_editor_document: replace the content of the file open in the editor (origins: engine).

The editor shows a workspace file, so the tool writes that file: the change is recorded like any other
(undoable), and the editor refreshes from the workspace's change notification.
"""

from __future__ import annotations

from pydantic import Field

from agentlite.tools.common import ToolArgs, prose, workspace_errors
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult
from agentlite.tools.writing import replace_content
from agentlite.workspace import paths


class EditorArgs(ToolArgs):
    content: str = Field(description="The complete new content of the open document.")
    instruction: str = Field("", description="Optional: what the change does, shown to the user.")


async def edit_current_editor_document(context: ToolContext, args: EditorArgs) -> ToolResult:
    if not context.editor_path:
        raise ToolError(
            ToolErrorType.NOT_FOUND,
            "no document is open in the editor",
            "Use write_file or edit_file with the path of the file to change.",
        )
    path = paths.normalize(context.editor_path, allow_root=False)
    info = await context.workspace.stat(path)
    if info is None or info["kind"] != "file":
        raise ToolError(
            ToolErrorType.NOT_FOUND,
            f"the document open in the editor, {path}, no longer exists",
            "Use create_file to make it again, or write_file with another path.",
        )
    if info.get("binary"):
        raise ToolError(ToolErrorType.INVALID_ARGUMENT, f"the open document {path} is a binary file")
    result = await replace_content(context, path, args.content)
    return ToolResult.success(f"{result.message} It is the document open in the editor.", result.data)


EDIT_CURRENT_EDITOR_DOCUMENT = prose(
    """Replace the whole content of the document open in the editor (the user's
current file). Send the complete new content, not an excerpt. Fails when no document is open; then
use write_file or edit_file with a path."""
)

TOOL = Tool(
    "edit_current_editor_document",
    EDIT_CURRENT_EDITOR_DOCUMENT,
    EditorArgs,
    workspace_errors(edit_current_editor_document),
    Risk.MODIFY,  # the engine asks the user before it replaces the open document
    resource=lambda _args: "editor",
    content="content",
    asks="overwrite",
)
