"""Searching file texts: literal or regex, case-(in)sensitive, with context lines and a result cap.

Each file's text is searched with one compiled pattern (MULTILINE, so `^` and `$` work per line), in
pieces whose cost is bounded (`query.Query`, `regex_guard`; a file of the usual size is one piece for a
linear pattern); only files with a match are mapped from offsets to line numbers, by counting line ends
between matches. One hit per line: `path:line: text`. No pattern holds the worker for more than about a
tenth of a second at once; a search that runs out of time says so and keeps the hits it found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentlite.workspace import paths
from agentlite.workspace.globs import glob_set
from agentlite.workspace.query import Budget, OutOfBudget, Query, compile_query
from agentlite.workspace.records import Entry
from agentlite.workspace.tree import Tree
from agentlite.workspace.workspace_errors import InvalidArgument, NotFound

__all__ = ["Budget", "Hit", "Query", "SearchResult", "compile_query", "files_to_search", "search_texts"]

DEFAULT_MAX_RESULTS = 100
MAX_CONTEXT = 20
MAX_HIT_CHARS = 400


@dataclass(frozen=True)
class Hit:
    path: str
    line: int
    text: str
    before: tuple[tuple[int, str], ...] = ()
    after: tuple[tuple[int, str], ...] = ()

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "text": self.text,
            "before": [list(pair) for pair in self.before],
            "after": [list(pair) for pair in self.after],
        }


@dataclass
class SearchResult:
    query: str
    hits: list[Hit] = field(default_factory=list)
    files_searched: int = 0
    files_matched: int = 0
    truncated: bool = False
    stopped: bool = False  # the regex used up the search's time; the hits so far stand

    def format(self) -> str:
        """grep-style text: hits as `path:line: text`, context lines as `path-line- text`."""
        if not self.hits:
            return f"No matches for {self.query!r} in {self.files_searched} files.{self._stop_note()}"
        out: list[str] = []
        context = any(hit.before or hit.after for hit in self.hits)
        for hit in self.hits:
            if context and out:
                out.append("--")
            out += [f"{hit.path}-{number}- {text}" for number, text in hit.before]
            out.append(hit.format())
            out += [f"{hit.path}-{number}- {text}" for number, text in hit.after]
        if self.truncated:
            out.append(f"(stopped after {len(self.hits)} matches; narrow the search to see more)")
        return "\n".join(out) + self._stop_note()

    def _stop_note(self) -> str:
        if not self.stopped:
            return ""
        return (
            f"\n(this regex is slow over so much text: the search stopped after {self.files_searched} files; "
            "narrow it with path or include, or use a simpler regex, e.g. a literal part of it)"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "hits": [hit.to_dict() for hit in self.hits],
            "files_searched": self.files_searched,
            "files_matched": self.files_matched,
            "truncated": self.truncated,
            "stopped": self.stopped,
        }


def files_to_search(
    tree: Tree, path: str, include: str | Sequence[str] | None, exclude: str | Sequence[str] | None
) -> list[Entry]:
    """The text files a search of `path` (a folder or one file) covers, as the globs select them."""
    root = paths.normalize(path)
    single = tree.at(root)
    if single is None and not tree.is_dir(root):
        raise NotFound(f"{root} does not exist", path=root)
    chosen = [single] if single is not None and single.kind == "file" else tree.below(root)
    wanted, unwanted = glob_set(include), glob_set(exclude)
    return [
        e
        for e in chosen
        if e.kind == "file"
        and not e.binary
        and (not wanted or wanted.matches(e.path, paths.relative(e.path, root)))
        and not (unwanted and unwanted.matches(e.path, paths.relative(e.path, root)))
    ]


async def search_texts(
    files: Iterable[tuple[str, str]],
    pattern: Query,
    *,
    query: str = "",
    context: int = 0,
    max_results: int = DEFAULT_MAX_RESULTS,
    budget: Budget | None = None,
) -> SearchResult:
    if not isinstance(context, int) or not 0 <= context <= MAX_CONTEXT:
        raise InvalidArgument(f"context must be between 0 and {MAX_CONTEXT} lines")
    if not isinstance(max_results, int) or max_results < 1:
        raise InvalidArgument("max_results must be 1 or more")
    result = SearchResult(query or pattern.pattern.pattern)
    budget = budget if budget is not None else Budget()
    try:
        for path, text in files:
            result.files_searched += 1  # the query asks the budget before each `re` call
            whole, match = pattern.at_once(text, 0, budget)  # most files: one call, nothing awaited
            if not whole or budget.due():
                match = await _rest((pattern, budget), text, 0, whole, match)
            if match is None:
                continue
            result.files_matched += 1
            if await _hits_in(result, path, text, (pattern, budget), match, context, max_results):
                result.truncated = True
                break
    except OutOfBudget:
        result.stopped = True
    return result


async def _hits_in(
    result: SearchResult,
    path: str,
    text: str,
    searcher: tuple[Query, Budget],
    match: re.Match[str] | None,
    context: int,
    max_results: int,
) -> bool:
    """Append the hits of one file; True when the cap was reached with matches left over."""
    line = 1
    counted = 0
    while match is not None:
        start = match.start()
        line += text.count("\n", counted, start)
        counted = start
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
        if len(result.hits) >= max_results:
            return True
        before = _lines_before(text, line_start, line, context) if context else ()
        after = _lines_after(text, line_end, line, context) if context else ()
        shown = _cut(text[line_start:line_end], start - line_start)
        result.hits.append(Hit(path, line, shown, before, after))
        if line_end >= len(text):
            return False
        whole, match = searcher[0].at_once(text, line_end + 1, searcher[1])
        if not whole or searcher[1].due():
            match = await _rest(searcher, text, line_end + 1, whole, match)
    return False


async def _rest(
    searcher: tuple[Query, Budget], text: str, pos: int, whole: bool, match: re.Match[str] | None
) -> re.Match[str] | None:
    """After `Query.at_once`: when it searched the `whole` rest, its match once the worker has answered
    what waits; else the match searched for in pieces."""
    if not whole:
        return await searcher[0].search(text, pos, searcher[1])
    await searcher[1].breathe()
    return match


def _lines_before(text: str, line_start: int, line: int, count: int) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    end = line_start - 1
    while len(found) < count and end >= 0:
        start = text.rfind("\n", 0, end) + 1
        found.append((line - len(found) - 1, _cut(text[start:end], 0)))
        end = start - 1
    return tuple(reversed(found))


def _lines_after(text: str, line_end: int, line: int, count: int) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    start = line_end + 1
    while len(found) < count and start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        found.append((line + len(found) + 1, _cut(text[start:end], 0)))
        start = end + 1
    return tuple(found)


def _cut(line: str, column: int) -> str:
    line = line.removesuffix("\r")
    if len(line) <= MAX_HIT_CHARS:
        return line
    begin = max(0, min(column - MAX_HIT_CHARS // 4, len(line) - MAX_HIT_CHARS))
    prefix = "…" if begin else ""
    suffix = "…" if begin + MAX_HIT_CHARS < len(line) else ""
    return prefix + line[begin : begin + MAX_HIT_CHARS] + suffix
