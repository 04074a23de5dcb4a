"""check_problems: every problem the page's checkers find in a file or folder (docs/problems.md)."""

from __future__ import annotations

from pydantic import Field

from agentlite.tools.common import ToolArgs, prose
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolErrorType, ToolResult
from agentlite.workspace import paths

LISTED = 200  # check_problems' lines; the rest are counted


class CheckProblemsArgs(ToolArgs):
    path: str = Field(
        default="/", description="A file or folder of the workspace; '/' for the whole project."
    )


async def check_problems(context: ToolContext, args: CheckProblemsArgs) -> ToolResult:
    watch = context.problems
    if watch is None:
        return ToolResult.failure(ToolErrorType.SANDBOX, "the problem checkers are not available here")
    path = paths.normalize(args.path)
    found = await watch.check(context.workspace, path)
    if watch.failure:
        return ToolResult.failure(ToolErrorType.SANDBOX, f"the problem checkers failed: {watch.failure}")
    rows = [problem for path_rows in found.values() for problem in path_rows]
    files = sum(1 for path_rows in found.values() if path_rows)
    if not rows:
        return ToolResult.success(f"No problems in the {len(found)} checked files under {path}.")
    lines = [f"{len(rows)} problem{'s' * (len(rows) != 1)} in {files} file{'s' * (files != 1)} under {path}:"]
    lines += [problem.line_text() for problem in sorted(rows)[:LISTED]]
    if len(rows) > LISTED:
        lines.append(f"... and {len(rows) - LISTED} more: ask for a smaller folder")
    return ToolResult.success("\n".join(lines))


CHECK_PROBLEMS = prose(
    """List the problems the project's checkers find in a file or folder: TypeScript and JavaScript
(TypeScript's checker, honouring tsconfig.json or jsconfig.json) and Python (Ruff, honouring
pyproject.toml or ruff.toml, syntax errors included), one line each, `path:line:col code message`. Every
change you make already reports the problems it introduced or fixed; use this for the whole picture."""
)

TOOL = Tool(
    "check_problems",
    CHECK_PROBLEMS,
    CheckProblemsArgs,
    check_problems,
    Risk.READ,
    path="path",
)
