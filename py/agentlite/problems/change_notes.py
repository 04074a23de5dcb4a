"""Problems after every change: the note a change's result carries (docs/problems.md).

A call of one of the app's own tools that may change files (a write, an edit, a create, a move, a delete,
a shell command) runs between two asks
of the page's checkers (`ProblemWatch`): before it, they catch up with the workspace; after it, they say
which problems its changes introduced and fixed, in this file or in another whose problems it changed
(a renamed export's importers). The result's message gets those lines, capped, in path order; a change
that touched no checked file, or a page without checkers, adds nothing. No pydantic here: the dispatcher
imports it at start-up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from agentlite.problems.problem_diff import render
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolResult

# The run tools whose changes are written back to the workspace; the others (a JavaScript eval, a
# preview, what later joins them) change no file, and cost a click nothing here.
FILE_CHANGING_RUNS = frozenset({"shell_exec"})


def changes_files(tool: Tool) -> bool:
    """Whether a call of `tool` may change the workspace's files: the app's own writes and the shell."""
    if tool.server or tool.risk is Risk.READ:
        return False
    return tool.risk is not Risk.EXECUTE or tool.name in FILE_CHANGING_RUNS


async def noting_problems(
    context: Any, tool: Tool | None, run: Callable[[], Awaitable[ToolResult]]
) -> ToolResult:
    """`run()`'s result, with the problems its changes introduced and fixed when a checker is there."""
    watch = getattr(context, "problems", None)
    if watch is None or tool is None or not changes_files(tool):
        return await run()
    await watch.settle(context.workspace)
    result = await run()
    found = await watch.changed(context.workspace)
    if not found:
        return result
    counts = (len(found.introduced), len(found.fixed))
    return replace(result, message=f"{result.message}\n{render(found)}", problems=counts)
