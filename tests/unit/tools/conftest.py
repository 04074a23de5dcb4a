"""Shared pieces of the tool tests: a workspace over MemoryStorage, a context, small tool settings.

The sandbox's fake is the package's own, `agentlite.page_jobs.ScriptedSandbox`.

`async def` tests run through the unit suite's one harness (tests/isolation.py).
"""

from __future__ import annotations

from typing import Any

from agentlite.tools.catalog import default_registry
from agentlite.tools.context import ToolContext, ToolSettings
from agentlite.tools.result import ToolResult
from agentlite.workspace import MemoryStorage, Workspace

REGISTRY = default_registry()
TURN = "turn-1"


async def workspace_with(files: dict[str, str | bytes] | None = None) -> Workspace:
    """A workspace holding `files`, written by the user in a turn of its own."""
    workspace = await Workspace.open(MemoryStorage())
    for path, content in (files or {}).items():
        if path.endswith("/"):
            await workspace.create_folder(path, turn="setup", author="user")
        else:
            await workspace.write(path, content, turn="setup", author="user")
    return workspace


async def context_with(files: dict[str, str | bytes] | None = None, **fields: Any) -> ToolContext:
    return ToolContext(await workspace_with(files), TURN, **fields)


async def call(context: ToolContext, name: str, **arguments: Any) -> ToolResult:
    return await REGISTRY.call(name, arguments, context)


async def snapshot(workspace: Workspace) -> dict[str, str | None]:
    """path -> text for files (binary ones decoded with U+FFFD), None for folders."""
    state: dict[str, str | None] = {}
    for item in await workspace.list("/", recursive=True):
        path = item["path"]
        state[path] = await workspace.read_text(path) if item["kind"] == "file" else None
    return state


SMALL = ToolSettings(
    shell_files_bytes=100, shell_file_bytes=60, output_chars=200, read_chars=400, list_entries=5
)
