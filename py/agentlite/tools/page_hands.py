"""preview_snapshot, preview_act, preview_wait: the agent's hands on the page it built (docs/preview.md,
"Hands on the page").

All three are answered inside the Preview panel's frame: the page as an accessibility tree with a ref per
element, an action on one ref with real DOM events, a bounded wait for a text. An action reports the
lines of the tree it changed and the console lines, uncaught errors and requests it caused. They run the
page's code, so they are asked for (and auto-approved) as preview_page is.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from agentlite.tools.code import run_in_sandbox
from agentlite.tools.common import ToolArgs, prose
from agentlite.tools.context import ToolContext
from agentlite.tools.page_preview import PREVIEW_TIMEOUT_MS, page_said
from agentlite.tools.page_snapshot import cut_snapshot, snapshot_diff
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolErrorType, ToolResult

SNAPSHOT_LINES = 400
SNAPSHOT_CHARS = 16_000
DIFF_LINES = 80
WAIT_CAP_MS = 30_000
ACT_TIMEOUT_MS = 20_000
Action = Literal["click", "type", "press", "select", "check", "hover", "scroll"]


class SnapshotArgs(ToolArgs):
    path: str = Field(
        default="/index.html",
        description="The workspace HTML page; the page already shown is reused, another is opened first.",
    )


class ActArgs(ToolArgs):
    ref: str = Field(min_length=1, description="The element's ref from the last snapshot, e.g. 'e12'.")
    action: Action = Field(description="What to do to the element.")
    value: str = Field(
        default="",
        description="type: the text; press: the key ('Enter', 'Escape', 'Tab', 'ArrowDown', 'a'); select: "
        "the option's label or value; check: '' toggles, 'true'/'false' sets; scroll: 'up'/'down' "
        "(else into view).",
    )


class WaitArgs(ToolArgs):
    text: str = Field(default="", description="The text to wait for; '' waits until the page is still.")
    gone: bool = Field(default=False, description="Wait until the text is no longer shown instead.")
    timeout_ms: int = Field(default=5_000, ge=0, description=f"At most this long (capped at {WAIT_CAP_MS}).")


def _path(path: str) -> str:
    return path if path.startswith("/") else f"/{path}"


def _tree(lines: Any) -> str:
    return cut_snapshot([str(line) for line in lines or []], SNAPSHOT_LINES, SNAPSHOT_CHARS)


async def preview_snapshot(context: ToolContext, args: SnapshotArgs) -> ToolResult:
    path = _path(args.path)
    result = await run_in_sandbox(context, "preview", {"op": "snapshot", "path": path}, PREVIEW_TIMEOUT_MS)
    state = str(result.get("state") or "error")
    if result.get("error") or state not in ("ready", "loading"):
        why = str(result.get("error") or result.get("message") or f"the page is in state {state}")
        said = page_said(result, context.settings.output_chars).parts
        message = "\n".join([f"snapshot of {path} failed: {why}", *said])
        return ToolResult.failure(ToolErrorType.SANDBOX, message, {"state": state})
    lines = result.get("lines") or []
    head = (
        f"snapshot of {path}:"
        if state == "ready"
        else f"snapshot of {path} (its load event has not come yet):"
    )
    parts = [head, _tree(lines), *page_said(result, context.settings.output_chars).parts]
    return ToolResult.success("\n".join(parts), {"state": state, "lines": len(lines)})


async def preview_act(context: ToolContext, args: ActArgs) -> ToolResult:
    payload = {"op": "act", "ref": args.ref, "action": args.action, "value": args.value}
    result = await run_in_sandbox(context, "preview", payload, ACT_TIMEOUT_MS)
    said = page_said(result, context.settings.output_chars)
    shown = args.value if args.action == "press" else f'"{args.value}"'
    what = f"{args.action} {shown} on {args.ref}" if args.value else f"{args.action} on {args.ref}"
    if result.get("error"):
        message = "\n".join([f"{what}: failed: {result['error']}", *said.parts])
        return ToolResult.failure(ToolErrorType.INVALID_ARGUMENT, message, {"action": args.action})
    if result.get("navigated"):
        parts = [f"{what}: done", f"the page went to {result['navigated']}; its snapshot:"]
        parts += [_tree(result.get("after")), *said.parts]
        data: dict[str, Any] = {"action": args.action, "ref": args.ref, "navigated": str(result["navigated"])}
        return ToolResult.success("\n".join(parts), data | {"errors": said.errors})
    diff = snapshot_diff(result.get("before") or [], result.get("after") or [], DIFF_LINES)
    removed = sum(1 for line in diff if line.startswith("- "))
    added = sum(1 for line in diff if line.startswith("+ "))
    change = f"--- snapshot changes ({removed} removed, {added} added) ---\n" + "\n".join(diff)
    parts = [f"{what}: done", change if diff else "(the snapshot did not change)", *said.parts]
    data = {"action": args.action, "ref": args.ref, "removed": removed, "added": added, "errors": said.errors}
    return ToolResult.success("\n".join(parts), data)


async def preview_wait(context: ToolContext, args: WaitArgs) -> ToolResult:
    timeout = min(args.timeout_ms, WAIT_CAP_MS)
    payload = {"op": "wait", "text": args.text, "gone": args.gone, "timeout_ms": timeout}
    result = await run_in_sandbox(context, "preview", payload, timeout + PREVIEW_TIMEOUT_MS)
    said = page_said(result, context.settings.output_chars)
    if result.get("error"):
        message = "\n".join([f"wait failed: {result['error']}", *said.parts])
        return ToolResult.failure(ToolErrorType.SANDBOX, message, {"happened": False})
    happened = result.get("happened") is True
    waited = int(result.get("waited_ms") or 0)
    outcome = (
        ("went" if happened else "did not go")
        if args.gone
        else ("appeared" if happened else "did not appear")
    )
    head = (
        f'waited {waited} ms: "{args.text}" {outcome}'
        if args.text
        else f"waited {waited} ms for the page to settle"
    )
    parts = [head, "--- snapshot ---", _tree(result.get("lines")), *said.parts]
    data = {"happened": happened, "waited_ms": waited}
    if not happened:
        return ToolResult.failure(ToolErrorType.TIMEOUT, "\n".join(parts), data)
    return ToolResult.success("\n".join(parts), data)


PREVIEW_SNAPSHOT = prose(
    """The previewed web page as an accessibility tree, one element a line, indented by depth:
`- role "name" [state]... [ref=e12]: value` (states: checked, disabled, expanded, focused, level=N,
pressed, selected; `- text: …` for text). Far cheaper than a screenshot. Use the refs with preview_act.
Reuses the page shown in the Preview panel when it is `path`, else opens `path` as preview_page does."""
)
PREVIEW_ACT = prose(
    """Act on an element of the previewed page by its ref from preview_snapshot, with real DOM events:
click, type (value: the text; Enter is a separate press), press (value: a key such as 'Enter'), select
(value: an option's label or value), check (value '' toggles, 'true'/'false' sets), hover, scroll. Returns
the lines of the snapshot the action changed (- removed, + added) and the console lines, uncaught errors
and requests it caused."""
)
PREVIEW_WAIT = prose(
    """Wait in the previewed page until `text` shows (or, with gone=true, no longer does), at most
timeout_ms (capped at 30 s); '' waits until the page is still. Says whether it happened, with the
snapshot."""
)


def _tool(name: str, description: str, args: type[ToolArgs], handler: Any, inspects: bool) -> Tool:
    # the page's code runs: asked (and auto-approved) like preview_page; reading the page (a snapshot, a
    # wait) changes nothing, acting on it does
    return Tool(
        name, description, args, handler, Risk.EXECUTE, resource=_on_preview, asks="js", inspects=inspects
    )


def _on_preview(_args: Any) -> str:
    return "preview"


TOOLS = [
    _tool("preview_snapshot", PREVIEW_SNAPSHOT, SnapshotArgs, preview_snapshot, inspects=True),
    _tool("preview_act", PREVIEW_ACT, ActArgs, preview_act, inspects=False),
    _tool("preview_wait", PREVIEW_WAIT, WaitArgs, preview_wait, inspects=True),
]
