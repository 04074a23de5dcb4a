"""Tools that look without touching: list_directory, read_file (a page at a time) and search.

Results are written for a model with a small context: absolute paths, numbered lines, `path:line: text`
hits, and always a word on whether there is more (and how to get it) or the end was reached.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import Field, field_validator

from agentlite.tools import images
from agentlite.tools.common import ToolArgs, path_resource, plural, prose, workspace_errors
from agentlite.tools.context import ToolContext
from agentlite.tools.pdf_text import is_pdf, pdf_text
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolResult
from agentlite.workspace import Page, paths
from agentlite.workspace.pages import page_of
from agentlite.workspace.query import Budget, OutOfBudget
from agentlite.workspace.search import MAX_CONTEXT, Query, compile_query
from agentlite.workspace.workspace_errors import size_text

MAX_PAGE_LINES = 2000
PATH_HITS = 20


class ListArgs(ToolArgs):
    path: str = Field("/", description="Folder to list, e.g. '/' or 'src/components'. Defaults to the root.")
    recursive: bool = Field(False, description="Also list everything below the sub-folders.")


async def list_directory(context: ToolContext, args: ListArgs) -> ToolResult:
    folder = paths.normalize(args.path)
    entries = await context.workspace.list(folder, recursive=args.recursive, details=True)
    limit = context.settings.list_entries
    shown = [_entry_line(entry) for entry in entries[:limit]]
    dirs = sum(1 for entry in entries if entry["kind"] == "dir")
    head = f"{folder}: {plural(dirs, 'folder')}, {plural(len(entries) - dirs, 'file')}"
    if not entries:
        head = f"{folder} is empty."
    text = "\n".join([head, *shown])
    if len(entries) > limit:
        text += f"\n(showing the first {limit}; list a sub-folder to see the rest)"
    data = {"path": folder, "folders": dirs, "files": len(entries) - dirs, "truncated": len(entries) > limit}
    return ToolResult.success(text, data)


def _entry_line(entry: dict[str, Any]) -> str:
    if entry["kind"] == "dir":
        return str(entry["path"]) + "/"
    binary = "binary, " if entry.get("binary") else ""
    return f"{entry['path']}  ({binary}{size_text(int(entry.get('size') or 0))})"


class ReadArgs(ToolArgs):
    path: str = Field(description="File to read, e.g. '/src/App.tsx' or 'src/App.tsx'.")
    start_line: int = Field(
        1, ge=1, description="First line to show (1-based). Use the next start line given."
    )
    max_lines: int = Field(200, ge=1, le=MAX_PAGE_LINES, description="How many lines to show at most.")


async def read_file(context: ToolContext, args: ReadArgs) -> ToolResult:
    info = await context.workspace.stat(args.path) if is_pdf(args.path) else None
    if info is not None and info.get("kind") == "file":
        text = await pdf_text(context, info["path"], info.get("sha256"), int(info.get("size") or 0))
        page = page_of(info["path"], text, args.start_line, args.max_lines, info.get("size"))
    else:
        page = await context.workspace.read(args.path, args.start_line, args.max_lines)
    if page.binary:
        data = {"path": page.path, "binary": True, "size": page.size, "mime": page.mime}
        return await _picture(context, page) or ToolResult.success(page.format(), data)
    page = _fit(page, context.settings.read_chars)
    data = {
        "path": page.path,
        "start_line": page.start_line,
        "end_line": page.end_line,
        "total_lines": page.total_lines,
        "next_start_line": page.next_start_line,
        "eof": page.eof,
        "size": page.size,
    }
    return ToolResult.success(page.format(), data)


async def _picture(context: ToolContext, page: Page) -> ToolResult | None:
    """A workspace image (PNG, JPEG, GIF, WebP by its first bytes) as a result that carries it: a model
    that takes images sees it, any other reads what it is and its size (docs/attachments.md)."""
    raw = await context.workspace.read_bytes(page.path)
    if raw is None or images.sniff(raw) is None:
        return None
    image = images.from_bytes(raw)
    kind = str(images.sniff(raw)).removeprefix("image/").upper()
    data = {"path": page.path, "binary": True, "size": page.size, "mime": images.sniff(raw)}
    if isinstance(image, str):
        return ToolResult.success(f"{page.path}: {kind} image, {size_text(page.size)}; {image}.", data)
    text = f"{page.path}: {kind} image, {size_text(page.size)} (attached for models that take images)."
    return ToolResult.success(text, data).with_images((image,))


def _fit(page: Page, limit: int) -> Page:
    """The page cut to whole lines within `limit` characters (at least one line); the rest comes next."""
    used = 0
    for count, line in enumerate(page.lines):
        used += len(line) + 8
        if used > limit and count > 0:
            end = page.start_line + count - 1
            return replace(page, lines=page.lines[:count], end_line=end, next_start_line=end + 1)
    return page


class SearchArgs(ToolArgs):
    query: str = Field(min_length=1, description="Text to find (or a Python regex when regex is true).")
    path: str = Field("/", description="Folder (or one file) to search in. Defaults to the whole workspace.")
    regex: bool = Field(False, description="Treat the query as a regular expression.")
    case_sensitive: bool = Field(False, description="Match upper and lower case exactly.")
    include: list[str] = Field(
        default_factory=list, description="Only files matching these globs, e.g. ['*.ts', 'src/**']."
    )
    exclude: list[str] = Field(default_factory=list, description="Skip files matching these globs.")
    context_lines: int = Field(
        0, ge=0, le=MAX_CONTEXT, description="Lines to show before and after each hit."
    )
    max_results: int = Field(100, ge=1, le=1000, description="Stop after this many hits.")

    @field_validator("include", "exclude", mode="before")
    @classmethod
    def _globs(cls, value: Any) -> Any:
        """A single glob, or several separated by commas, is accepted as well as a list."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value


async def search(context: ToolContext, args: SearchArgs) -> ToolResult:
    folder = paths.normalize(args.path)
    budget = Budget()  # one for the texts and the names: the worker is held once, not twice
    result = await context.workspace.search(
        args.query,
        folder,
        regex=args.regex,
        case_sensitive=args.case_sensitive,
        include=args.include or None,
        exclude=args.exclude or None,
        context=args.context_lines,
        max_results=args.max_results,
        budget=budget,
    )
    pattern = compile_query(args.query, regex=args.regex, case_sensitive=args.case_sensitive)
    named = await _paths_matching(context, folder, pattern, budget)
    head = (
        f"{plural(len(result.hits), 'match')} in {plural(result.files_matched, 'file')} "
        f"({result.files_searched} searched)"
    )
    text = f"{head}\n{result.format()}" if result.hits else result.format()
    if named:
        text += "\nPaths that match the query: " + ", ".join(named)
    data = {
        "matches": len(result.hits),
        "files_matched": result.files_matched,
        "files_searched": result.files_searched,
        "truncated": result.truncated,
        "stopped": result.stopped,
        "paths": named,
    }
    return ToolResult.success(text, data)


async def _paths_matching(context: ToolContext, folder: str, pattern: Query, budget: Budget) -> list[str]:
    """Files and folders whose name matches too: a search for `Button` should find `/src/Button.tsx`."""
    info = await context.workspace.stat(folder)
    if info is None or info["kind"] != "dir":
        return []
    found: list[str] = []
    for entry in await context.workspace.list(folder, recursive=True):
        try:
            if await pattern.search(paths.name_of(entry["path"]), 0, budget):
                found.append(entry["path"])
        except OutOfBudget:
            break
        if len(found) >= PATH_HITS:
            break
    return found


READ_FILE = prose(
    """Read a text file, one page of numbered lines at a time (200 lines by default).
The result says which lines are shown, how many the file has, and either `(end of file)` or the
start_line to read next. Read further pages only while you need them; stop at `(end of file)`. For big
files, find the place with search first and read only around it. Binary files are reported by size
and type, not shown; a PDF is shown as its text, each page under `--- page N ---`."""
)

SEARCH = prose(
    """Search the text of the workspace files (like grep). Each hit is shown as `path:line: text`,
so you can read_file around that line afterwards. Literal text by default; regex=true for a Python
regular expression. Case-insensitive unless case_sensitive=true. Narrow it with path (a folder or one
file), include / exclude globs and context_lines. Paths whose names match the query are listed too."""
)

LIST_DIRECTORY = prose(
    """List the files and folders in a folder of the workspace (folders end with `/`,
files show their size). List before reading a file you have not seen yet. recursive=true lists the
whole tree below the folder."""
)

TOOLS = [
    Tool(
        "list_directory",
        LIST_DIRECTORY,
        ListArgs,
        workspace_errors(list_directory),
        Risk.READ,
        aliases=("list_files",),
        resource=path_resource("path", "/"),
        path="path",
    ),
    Tool(
        "read_file",
        READ_FILE,
        ReadArgs,
        workspace_errors(read_file),
        Risk.READ,
        resource=path_resource("path"),
        path="path",
    ),
    Tool(
        "search",
        SEARCH,
        SearchArgs,
        workspace_errors(search),
        Risk.READ,
        aliases=("search_files", "grep"),
        resource=path_resource("path", "/"),
        path="path",
    ),
]
