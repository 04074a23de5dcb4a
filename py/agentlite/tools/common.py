"""Pieces every tool shares: the argument base model, workspace errors as results, nearest paths, caps.

A workspace error is the model's mistake (a wrong path, a bad regex), so it becomes a failed result
with a hint that says how to recover; the registry turns the raised ToolError into that result.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, model_validator

from agentlite.tools.context import ToolContext
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult
from agentlite.workspace import Workspace, WorkspaceError, paths

NEAREST = 5
PATH_SYNONYMS = ("file_path", "filePath", "filepath", "file", "filename")

ERROR_TYPES = {
    "not_found": ToolErrorType.NOT_FOUND,
    "already_exists": ToolErrorType.CONFLICT,
    "conflict": ToolErrorType.CONFLICT,
    "stale": ToolErrorType.CONFLICT,
    "file_too_large": ToolErrorType.TOO_LARGE,
    "invalid_path": ToolErrorType.INVALID_ARGUMENT,
    "invalid_argument": ToolErrorType.INVALID_ARGUMENT,
    "bad_pattern": ToolErrorType.INVALID_ARGUMENT,
    "not_a_file": ToolErrorType.INVALID_ARGUMENT,
    "not_a_directory": ToolErrorType.INVALID_ARGUMENT,
    "storage_full": ToolErrorType.TOO_LARGE,
    "storage_closed": ToolErrorType.DENIED,
    "storage": ToolErrorType.INTERNAL,
    "corrupt": ToolErrorType.INTERNAL,
}
STORAGE_FULL = "Browser storage is full: nothing of this call was saved (everything saved before is kept)."
HINTS = {
    "not_a_file": "To see what a folder holds, use list_directory.",
    "not_a_directory": "To read a file, use read_file.",
    "conflict": "Read the file again and retry with its current content.",
    "stale": "The workspace changed meanwhile; read the file again and retry.",
    "file_too_large": "Split the content into several smaller files.",
    "storage_full": (
        "Do not retry: tell the user that storage is full, and that exporting the workspace (Export, "
        "with its history) and then clearing it, or deleting files on this device to free disk space, "
        "makes room."
    ),
    "storage_closed": (
        "Do not retry: tell the user to reload this page (AgentLite was updated in another tab)."
    ),
    "storage": "Nothing of this call was saved. Try once more; if it fails again, tell the user.",
}


class ToolArgs(BaseModel):
    """Arguments of one tool. `null` for an optional field means its default; `file_path` means `path`.

    Models often send `null` for an argument they do not use, or name the path field after another
    tool set; both are accepted so that the call runs instead of bouncing on a technicality.
    """

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = cls.model_fields
        out = {
            k: v for k, v in data.items() if not (v is None and k in fields and not fields[k].is_required())
        }
        if "path" in fields and "path" not in out:
            for synonym in PATH_SYNONYMS:
                if isinstance(out.get(synonym), str):
                    out["path"] = out.pop(synonym)
                    break
        return out


Run = TypeVar("Run", bound=Callable[..., Awaitable[ToolResult]])


def workspace_errors(run: Run) -> Run:
    """Turn a WorkspaceError raised by the tool into a ToolError with a recovery hint."""

    @functools.wraps(run)
    async def guarded(context: ToolContext, args: Any) -> ToolResult:
        try:
            return await run(context, args)
        except WorkspaceError as error:
            raise await tool_error(context.workspace, error) from error

    return guarded  # type: ignore[return-value]


async def tool_error(workspace: Workspace, error: WorkspaceError) -> ToolError:
    """The failed result for a workspace error: its errorType, its message, and a hint to recover.

    Storage full is `too_large` (the workspace cannot take more); storage closed by a newer version of
    the app in another tab is `denied` (this tab may not write; the user did not reject anything).
    """
    error_type = ERROR_TYPES.get(error.code, ToolErrorType.INTERNAL)
    hint = HINTS.get(error.code, "")
    message = STORAGE_FULL if error.code == "storage_full" else error.message
    if error.code == "not_found" and error.path:
        hint = await nearest_hint(workspace, error.path)
    return ToolError(error_type, message, hint)


async def nearest_paths(workspace: Workspace, path: str, limit: int = NEAREST) -> list[str]:
    """Existing paths that look like `path`: the same name elsewhere first, then close spellings."""
    existing = [entry["path"] for entry in await workspace.list("/", recursive=True)]
    wanted = path if path.startswith("/") else "/" + path
    name = paths.name_of(wanted.rstrip("/"))
    found = [p for p in existing if paths.name_of(p) == name]
    found += difflib.get_close_matches(wanted, existing, n=limit, cutoff=0.6)
    names: dict[str, list[str]] = {}
    for p in existing:
        names.setdefault(paths.name_of(p), []).append(p)
    for close in difflib.get_close_matches(name, list(names), n=limit, cutoff=0.7):
        found += names[close]
    return list(dict.fromkeys(p for p in found if p != wanted))[:limit]


async def nearest_hint(workspace: Workspace, path: str) -> str:
    near = await nearest_paths(workspace, path)
    if near:
        return "Nearest existing paths: " + ", ".join(near) + ". Use list_directory to see a folder."
    if not await workspace.list("/"):
        return "The workspace is empty."
    return "Use list_directory to see which files exist."


def path_resource(name: str, default: str | None = None) -> Callable[[Any], str | None]:
    """The resource of a tool (what the engine locks): the normalised path in argument `name`.

    Works on the validated arguments or on the raw dict the engine may hold before validation.
    """

    def resource(args: Any) -> str | None:
        value = args.get(name, default) if isinstance(args, dict) else getattr(args, name, default)
        if not isinstance(value, str):
            return None
        try:
            return paths.normalize(value)
        except WorkspaceError:
            return value

    return resource


def prose(text: str) -> str:
    """A description as one line: the prompt dialects list each tool on one line of the system prompt."""
    return " ".join(text.split())


def cap_text(text: str, limit: int) -> str:
    """`text` within `limit` characters: the head and the (usually more telling) tail, and what was cut."""
    if len(text) <= limit:
        return text
    head = limit // 4
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n[... {cut} characters cut ...]\n{text[len(text) - tail :]}"


def plural(count: int, word: str) -> str:
    """`1 file`, `2 files`, `3 matches`."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith(("ch", "sh", "s", "x")) else f"{count} {word}s"
