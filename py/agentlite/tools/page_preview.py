"""preview_page: the agent sees the web page it built (docs/preview.md).

The page opens (or reloads) its Preview panel on `path` and reports the page's title, its visible text,
its console lines, its uncaught errors with file:line and the requests it made (method, URL, status),
and with `screenshot` a PNG of the page as drawn (taken in the preview frame, docs/preview.md
"Screenshots"). The picture always rides on the
result, so the tool card shows it; the request carries it only to a model that takes images, and for
one that does not the text says so. It runs the page's code, so it is an execute tool and asks for
approval where browser_js_eval does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from agentlite.tools.code import run_in_sandbox
from agentlite.tools.common import ToolArgs, cap_text, prose
from agentlite.tools.context import ToolContext
from agentlite.tools.images import accept
from agentlite.tools.page_snapshot import requests_text
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolErrorType, ToolResult

TEXT_CHARS = 4_000  # the visible text the model reads
PREVIEW_TIMEOUT_MS = 30_000


class PreviewArgs(ToolArgs):
    path: str = Field(
        default="/index.html", description="The workspace HTML file to open, e.g. '/index.html'."
    )
    screenshot: bool = Field(default=False, description="Also take a PNG picture of the rendered page.")


async def preview_page(context: ToolContext, args: PreviewArgs) -> ToolResult:
    path = args.path if args.path.startswith("/") else f"/{args.path}"
    payload: dict[str, Any] = {"path": path, "screenshot": args.screenshot}
    if context.stage is not None:
        payload["chat"] = context.stage  # the page shows the stage's files (docs/stage.md)
    result = await run_in_sandbox(context, "preview", payload, PREVIEW_TIMEOUT_MS)
    shown = report(path, result, context.settings.output_chars)
    return with_screenshot(shown, result, context.settings.takes_images) if args.screenshot else shown


def with_screenshot(shown: ToolResult, result: dict[str, Any], takes_images: bool) -> ToolResult:
    """The report with the page's picture on it (for the card, and for a model that takes images), and a
    line saying what became of it; a picture that could not be taken is that line only."""
    shot = result.get("screenshot")
    checked = accept("image/png", shot.get("data")) if isinstance(shot, dict) else None
    if isinstance(checked, str) or checked is None:
        why = checked or str(result.get("screenshot_error") or "the preview gave no picture")
        return replace(shown, message=f"{shown.message}\nscreenshot: not taken: {why}")
    assert isinstance(shot, dict)
    size = f"{shot.get('width')}x{shot.get('height')} PNG"
    line = (
        f"screenshot: {size}, attached"
        if takes_images
        else f"screenshot: {size}, shown to the user on the tool card; this model is set up without "
        "images, so it is not sent to you"
    )
    return replace(shown, message=f"{shown.message}\n{line}").with_images((checked,))


def report(path: str, result: dict[str, Any], limit: int) -> ToolResult:
    """The tool's answer from the page's report: state, title, text, console, errors."""
    state = str(result.get("state") or "error")
    parts = [f"preview of {path}: {state}"]
    if result.get("message"):
        parts.append(str(result["message"]))
    parts.append(f"title: {result.get('title') or '(none)'}")
    parts.append(f"--- visible text ---\n{cap_text(str(result.get('text') or ''), TEXT_CHARS) or '(none)'}")
    said = page_said(result, limit, always=True)
    parts.extend(said.parts)
    data = {"state": state, "title": result.get("title") or "", "logs": said.logs, "errors": said.errors}
    if state != "ready":
        message = "\n".join(parts)
        return ToolResult.failure(ToolErrorType.SANDBOX, message, data)
    return ToolResult.success("\n".join(parts), data)


@dataclass(frozen=True)
class PageSaid:
    """What a page said while it was watched: the report's sections, and how many lines and errors."""

    parts: list[str]
    logs: int
    errors: int


def page_said(result: dict[str, Any], limit: int, always: bool = False) -> PageSaid:
    """The console, uncaught errors and requests sections of the page's answer (the console even when
    empty when `always`; the others only when they have lines)."""
    logs = [log for log in result.get("logs") or [] if isinstance(log, dict)]
    errors = [str(e) for e in result.get("errors") or []]
    requests = requests_text(result.get("requests") or [])
    console = "\n".join(f"[{log.get('level', 'log')}] {log.get('text', '')}" for log in logs)
    parts = []
    if logs or always:
        parts.append(f"--- console ({len(logs)} lines) ---\n{cap_text(console, limit) or '(empty)'}")
    if errors:
        parts.append(f"--- uncaught errors ({len(errors)}) ---\n{cap_text(chr(10).join(errors), limit)}")
    if requests:
        parts.append(f"--- requests ({len(requests)}) ---\n{cap_text(chr(10).join(requests), limit)}")
    return PageSaid(parts, len(logs), len(errors))


PREVIEW_PAGE = prose(
    """Open (or reload) a workspace HTML page in the app's Preview panel, as a browser opens it from a
folder (scripts, modules, CSS, images, fetch of workspace files; .ts/.tsx/.jsx are transpiled; bare
react, react-dom/client, preact resolve to shipped copies; no network), and get its title, its visible
text, its console lines, its uncaught errors with file:line and the requests it made (method, URL,
status). Use it to check a page you built; preview_snapshot and preview_act drive it.
screenshot=true also returns a PNG of the rendered page (up to 1280x2000 CSS px), which you see when
you take images."""
)

TOOL = Tool(
    "preview_page",
    PREVIEW_PAGE,
    PreviewArgs,
    preview_page,
    Risk.EXECUTE,
    resource=lambda _args: "preview",
    content="path",
    asks="js",  # it runs the page's JavaScript: asked (and auto-approved) like browser_js_eval
)
