"""Running model-written code: browser_js_eval (JavaScript) and shell_exec (a bash-like shell).

Neither runs here: both go to the sandbox (an opaque-origin iframe) through `ToolContext.sandbox`.
A sandbox failure (a timeout, a frame that did not start) is a failed result the model can act on;
the output it reads is capped, keeping the head and the tail.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field

from agentlite.page_jobs import SandboxError
from agentlite.tools import shell_files
from agentlite.tools.common import ToolArgs, cap_text, prose, tool_error, workspace_errors
from agentlite.tools.context import SHELL_AUTHOR, SandboxRunner, ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult
from agentlite.workspace import StorageError

SANDBOX_ERRORS = {"timeout": ToolErrorType.TIMEOUT, "bad_request": ToolErrorType.INVALID_ARGUMENT}
# every other SandboxError type (failed, invalid, unavailable, no_answer) is ToolErrorType.SANDBOX


def _sandbox(context: ToolContext) -> SandboxRunner:
    if context.sandbox is None:
        raise ToolError(ToolErrorType.SANDBOX, "code cannot be run here: no sandbox is available")
    return context.sandbox


async def run_in_sandbox(
    context: ToolContext, kind: str, payload: dict[str, Any], timeout_ms: int
) -> dict[str, Any]:
    """One sandbox run; a SandboxError becomes a ToolError the model can act on, anything else is a bug."""
    try:
        return await _sandbox(context).run(kind, payload, timeout_ms)
    except (SandboxError, TimeoutError) as error:
        error_type = SANDBOX_ERRORS.get(getattr(error, "type", "timeout"), ToolErrorType.SANDBOX)
        if error_type is ToolErrorType.TIMEOUT:
            raise _timeout(timeout_ms) from error
        raise ToolError(error_type, f"the sandbox failed: {getattr(error, 'message', error)}") from error


def _timeout(timeout_ms: int) -> ToolError:
    return ToolError(
        ToolErrorType.TIMEOUT,
        f"the code ran longer than {timeout_ms / 1000:g} s and was stopped",
        "Make it faster, work on less data at a time, or look for an endless loop.",
    )


class EvalArgs(ToolArgs):
    code: str = Field(
        min_length=1, description="JavaScript to run, e.g. '2 + 2'. The last expression is the result."
    )


MODULE_SUFFIXES = (".js", ".mjs", ".json")
MODULE_BYTES = 4 * 1024 * 1024  # workspace modules handed to one eval at most


async def _module_files(context: ToolContext, code: str) -> dict[str, str]:
    """The workspace's JS and JSON files when the code imports something (`import("/src/x.js")`)."""
    if not re.search(r"\bimport\s*\(", code):
        return {}
    files: dict[str, str] = {}
    budget = MODULE_BYTES
    for entry in await context.workspace.list("/", recursive=True, details=True):
        path = str(entry["path"])
        if entry["kind"] != "file" or entry.get("binary") or not path.endswith(MODULE_SUFFIXES):
            continue
        if entry.get("size", 0) > budget:
            continue
        text = await context.workspace.read_text(path)
        if text is not None:
            budget -= len(text.encode())
            files[path] = text
    return files


async def browser_js_eval(context: ToolContext, args: EvalArgs) -> ToolResult:
    limit = context.settings.output_chars
    payload: dict[str, Any] = {"code": args.code}
    files = await _module_files(context, args.code)
    if files:
        payload["files"] = files
    result = await run_in_sandbox(context, "js", payload, context.settings.eval_timeout_ms)
    logs = [log for log in result.get("logs") or [] if isinstance(log, dict)]
    console = cap_text("\n".join(f"[{log.get('level', 'log')}] {log.get('text', '')}" for log in logs), limit)
    shown = f"\nconsole:\n{console}" if console else ""
    error = result.get("error")
    if isinstance(error, dict):
        where = f" ({error['line']})" if error.get("line") else ""
        message = f"Uncaught {error.get('name', 'Error')}: {error.get('message', '')}{where}"
        data = {"error": error, "logs": len(logs)}
        raise ToolError(ToolErrorType.SANDBOX, message + shown, "Fix the code and run it again.", data)
    raw = result.get("value")
    value = cap_text("undefined" if raw is None else str(raw), limit)
    kind = result.get("type") or "undefined"
    data = {"type": kind, "logs": len(logs)}
    return ToolResult.success(f"result ({kind}): {value}{shown}", data)


class ShellArgs(ToolArgs):
    command: str = Field(min_length=1, description="The command line, e.g. 'grep -rn TODO src | wc -l'.")


async def shell_exec(context: ToolContext, args: ShellArgs) -> ToolResult:
    settings = context.settings
    staged = await shell_files.stage(context.workspace, args.command, settings)
    payload = {"command": args.command, "files": staged.files, "cwd": "/", "dirs": staged.dirs}
    result = await run_in_sandbox(context, "shell", payload, settings.shell_timeout_ms)
    code, parts = _output(result, settings.output_chars)
    try:
        applied = await shell_files.apply(
            context.workspace, staged, result, args.command, context.turn_id, SHELL_AUTHOR
        )
    except StorageError as error:  # nothing of the run was recorded: never report it as done
        failed = await tool_error(context.workspace, error)
        message = "\n".join([*parts, f"The command's file changes were NOT saved: {failed.message}"])
        raise ToolError(failed.error_type, message, failed.hint, {"exit_code": code}) from error
    parts += [note for note in (applied.note(), staged.note(settings.shell_files_bytes)) if note]
    data = {"exit_code": code, "files_given": len(staged.files), **applied.to_dict()}
    if code != 0:
        return ToolResult.failure(ToolErrorType.SANDBOX, "\n".join(parts), data)
    return ToolResult.success("\n".join(parts), data)


def _output(result: dict[str, Any], limit: int) -> tuple[int, list[str]]:
    """The exit code, and the lines that show it with stdout and stderr (each capped)."""
    code = result.get("exit_code")
    code = code if isinstance(code, int) else 1
    parts = [f"exit code {code}"]
    for name in ("stdout", "stderr"):
        text = str(result.get(name) or "")
        if text:
            parts.append(f"--- {name} ---\n{cap_text(text, limit)}")
    if len(parts) == 1:
        parts.append("(no output)")
    return code, parts


BROWSER_JS_EVAL = prose(
    """Run JavaScript in a sandboxed browser frame and get the value of the last expression
(awaited when it is a promise) and the console output. Use it for calculations and data processing
instead of working them out by hand. The frame has no network and no access to the page; it can import the
workspace's JavaScript modules by absolute path (`const m = await import("/src/math.js")`), which
import each other relatively. Long runs are stopped after a time limit."""
)

SHELL_EXEC = prose(
    """Run a bash-like shell command (pipes, redirects, grep, sed, awk, find, sort, wc, jq,
python3, pytest, ...) in a sandbox over a copy of the workspace text files, from the root folder '/'.
Files the command creates, changes or deletes are written back to the workspace (caches such as
__pycache__ and .pytest_cache are not), recorded so the user can undo them. Returns the exit code,
stdout and stderr (long output is cut in the middle). No network. Binary files are not available; in
a very large workspace, only the files named in the command (and what fits after them) are given."""
)

TOOLS = [
    Tool(
        "browser_js_eval",
        BROWSER_JS_EVAL,
        EvalArgs,
        browser_js_eval,
        Risk.EXECUTE,
        resource=lambda _args: "sandbox",
        content="code",
        asks="js",
    ),
    Tool(
        "shell_exec",
        SHELL_EXEC,
        ShellArgs,
        workspace_errors(shell_exec),
        Risk.EXECUTE,
        streamed=("command",),
        resource=lambda _args: "sandbox",
        content="command",
        asks="shell",
    ),
]
