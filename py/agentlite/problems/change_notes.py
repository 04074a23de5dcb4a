"""Problems after every change: the note a change's result carries (docs/problems.md).

A call of one of the app's own tools that may change files (anything but a read) runs between two asks
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


async def noting_problems(
    context: Any, tool: Tool | None, run: Callable[[], Awaitable[ToolResult]]
) -> ToolResult:
    """`run()`'s result, with the problems its changes introduced and fixed when a checker is there."""
    watch = getattr(context, "problems", None)
    if watch is None or tool is None or tool.risk is Risk.READ or tool.server:
        return await run()
    await watch.settle(context.workspace)
    result = await run()
    found = await watch.changed(context.workspace)
    if not found:
        return result
    counts = (len(found.introduced), len(found.fixed))
    return replace(result, message=f"{result.message}\n{render(found)}", problems=counts)
