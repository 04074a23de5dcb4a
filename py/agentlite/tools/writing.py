"""Tools that change files and folders: create, write, delete, move, rename, create a folder.

Every change is recorded in the workspace history under the context's turn and author, so the user
can undo it (a delete too). Results name the final path and the new version, never the content.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from agentlite.tools.common import ToolArgs, path_resource, plural, prose, workspace_errors
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Resource, Risk, Tool
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult
from agentlite.workspace import Change, Version, WorkspaceError, paths
from agentlite.workspace.pages import count_lines


def by(context: ToolContext) -> dict[str, Any]:
    """The turn and author every change of this context is recorded under."""
    return {"turn": context.turn_id, "author": context.author}


def version_of(change: Change, path: str) -> Version | None:
    return next((v for v in change.versions if v.path == path), None)


def change_data(change: Change, path: str) -> dict[str, Any]:
    version = version_of(change, path)
    return {"path": path, "version": version.version if version else None, "commit": change.commit}


def describe_text(content: str) -> str:
    return f"{plural(count_lines(content), 'line')}, {plural(len(content.encode('utf-8')), 'byte')}"


class CreateArgs(ToolArgs):
    path: str = Field(description="Path of the new file, with its extension, e.g. 'src/Button.tsx'.")
    content: str = Field(description="The whole content of the new file.")


async def create_file(context: ToolContext, args: CreateArgs) -> ToolResult:
    path = paths.normalize(args.path, allow_root=False)
    change = await context.workspace.create(path, args.content, **by(context))
    return ToolResult.success(f"Created {path} ({describe_text(args.content)}).", change_data(change, path))


class WriteArgs(ToolArgs):
    path: str = Field(description="Path of the file to write, e.g. 'src/App.tsx'.")
    content: str = Field(description="The complete new content of the file (not a diff, not an excerpt).")


async def write_file(context: ToolContext, args: WriteArgs) -> ToolResult:
    return await replace_content(context, paths.normalize(args.path, allow_root=False), args.content)


async def replace_content(context: ToolContext, path: str, content: str) -> ToolResult:
    """Write `content` to `path`; an empty `content` never wipes a file that has text."""
    before = await context.workspace.stat(path)
    if content == "" and before is not None and before.get("size"):
        raise ToolError(
            ToolErrorType.INVALID_ARGUMENT,
            f"content is empty; writing it would erase all of {path}",
            "Send the complete new content. To delete the file use delete_file; to remove part of it "
            "use edit_file.",
        )
    change = await context.workspace.write(path, content, **by(context))
    data = change_data(change, path)
    if change.commit is None:
        return ToolResult.success(f"{path} already has exactly this content; nothing changed.", data)
    verb = "Replaced the content of" if before is not None else "Created"
    return ToolResult.success(f"{verb} {path} ({describe_text(content)}).", data)


class DeleteArgs(ToolArgs):
    path: str = Field(description="File or folder to delete (a folder goes with everything in it).")


async def delete_file(context: ToolContext, args: DeleteArgs) -> ToolResult:
    path = paths.normalize(args.path)
    change = await context.workspace.delete(path, **by(context))
    files = sum(1 for v in change.versions if v.kind == "file")
    target = version_of(change, path)
    if target is not None and target.kind == "dir":
        text = f"Deleted the folder {path} and the {plural(files, 'file')} in it."
    else:
        text = f"Deleted {path}."
    data = {"path": path, "files": files, "commit": change.commit}
    return ToolResult.success(text + " The user can restore it from the history.", data)


class MoveArgs(ToolArgs):
    source: str = Field(description="File or folder to move, e.g. 'src/old.ts'.")
    destination: str = Field(
        description="New path, e.g. 'lib/new.ts'; an existing folder or a path ending in '/' means inside it."
    )


async def move_file(context: ToolContext, args: MoveArgs) -> ToolResult:
    source = paths.normalize(args.source, allow_root=False)
    change = await context.workspace.move(source, args.destination, **by(context))
    return _moved(change, source, "Moved")


class RenameArgs(ToolArgs):
    path: str = Field(description="File or folder to rename, e.g. 'src/utils.ts'.")
    new_name: str = Field(description="The new name only, without folders, e.g. 'helpers.ts'.")


async def rename_file(context: ToolContext, args: RenameArgs) -> ToolResult:
    source = paths.normalize(args.path, allow_root=False)
    change = await context.workspace.rename(source, args.new_name, **by(context))
    return _moved(change, source, "Renamed")


def _moved(change: Change, source: str, verb: str) -> ToolResult:
    moved = next((v for v in change.versions if v.source == source), None)
    if moved is None:
        return ToolResult.success(f"{source} is already there; nothing changed.", {"path": source})
    inside = plural(len(change.versions) - 1, "entry")
    extra = f" (with the {inside} inside)" if moved.kind == "dir" and len(change.versions) > 1 else ""
    data = {"source": source, "path": moved.path, "commit": change.commit}
    return ToolResult.success(f"{verb} {source} to {moved.path}{extra}.", data)


def _both(source: str | None, destination: str | None) -> Resource:
    """A move's resources: the engine locks where it comes from and where it goes."""
    return tuple(p for p in (source, destination) if p) or None


def _renamed(args: Any) -> str | None:
    """Where a rename goes: the new name beside the old path (None when the arguments are unusable)."""
    path = args.get("path") if isinstance(args, dict) else getattr(args, "path", None)
    name = args.get("new_name") if isinstance(args, dict) else getattr(args, "new_name", None)
    if not isinstance(path, str) or not isinstance(name, str) or not name or "/" in name:
        return None
    try:
        return paths.join(paths.parent(paths.normalize(path)), name)
    except WorkspaceError:  # an invalid path fails when the call runs
        return None


class FolderArgs(ToolArgs):
    path: str = Field(description="Folder to create, e.g. 'src/components'; missing parents are created too.")


async def create_folder(context: ToolContext, args: FolderArgs) -> ToolResult:
    path = paths.normalize(args.path, allow_root=False)
    change = await context.workspace.create_folder(path, **by(context))
    if change.commit is None:
        return ToolResult.success(f"The folder {path} already exists; nothing changed.", {"path": path})
    return ToolResult.success(f"Created the folder {path}.", {"path": path, "commit": change.commit})


CREATE_FILE = prose(
    """Create a new file with the given content (missing parent folders are created).
Fails when something already exists at the path: then use edit_file to change part of it, or
write_file to replace it whole."""
)

WRITE_FILE = prose(
    """Write the complete content of a file: creates it, or replaces everything in it.
Send the whole file, never an excerpt or a diff. To change a few lines of an existing file, edit_file
is cheaper and safer."""
)

DELETE_FILE = prose(
    """Delete a file, or a folder with everything in it. The user can restore it from the
history, but only delete what the task needs gone."""
)

MOVE_FILE = prose(
    """Move a file or folder to another path (its history moves with it). When destination is
an existing folder or ends with '/', the source moves inside it."""
)

RENAME_FILE = prose("Rename a file or folder in place: give the new name only, not a path.")

CREATE_FOLDER = prose(
    "Create a folder, and any missing parent folders. Nothing happens when it already exists."
)

TOOLS = [
    Tool(
        "create_file",
        CREATE_FILE,
        CreateArgs,
        workspace_errors(create_file),
        Risk.CREATE,
        aliases=("file_create",),
        streamed=("content",),
        resource=path_resource("path"),
        content="content",
        path="path",
    ),
    Tool(
        "write_file",
        WRITE_FILE,
        WriteArgs,
        workspace_errors(write_file),
        Risk.MODIFY,  # replacing an existing file asks the user: the engine checks whether it exists
        aliases=("update_file",),
        streamed=("content",),
        resource=path_resource("path"),
        content="content",
        path="path",
        asks="overwrite",
    ),
    Tool(
        "delete_file",
        DELETE_FILE,
        DeleteArgs,
        workspace_errors(delete_file),
        Risk.DESTRUCTIVE,
        resource=path_resource("path"),
        path="path",
        asks="delete",
    ),
    Tool(
        "move_file",
        MOVE_FILE,
        MoveArgs,
        workspace_errors(move_file),
        Risk.MODIFY,
        resource=lambda args: _both(path_resource("source")(args), path_resource("destination")(args)),
        path="source",
        asks="overwrite",
    ),
    Tool(
        "rename_file",
        RENAME_FILE,
        RenameArgs,
        workspace_errors(rename_file),
        Risk.MODIFY,
        resource=lambda args: _both(path_resource("path")(args), _renamed(args)),
        path="path",
    ),
    Tool(
        "create_folder",
        CREATE_FOLDER,
        FolderArgs,
        workspace_errors(create_folder),
        Risk.CREATE,
        resource=path_resource("path"),
        path="path",
    ),
]
