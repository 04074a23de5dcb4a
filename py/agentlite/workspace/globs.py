"""Include / exclude globs for search and listing.

A pattern without `/` matches any name in the path (`*.py`, `node_modules`); a pattern with `/`
matches the path relative to the search folder or to the root (`src/**/*.ts`). `*` and `?` stay
inside one name, `**` crosses folders, `[abc]` is a class and `{ts,tsx}` lists alternatives.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agentlite.workspace.workspace_errors import InvalidArgument


def expand_braces(pattern: str) -> list[str]:
    """`*.{ts,tsx}` -> [`*.ts`, `*.tsx`] (nested braces expand too)."""
    match = re.search(r"\{([^{}]*)\}", pattern)
    if not match:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    result: list[str] = []
    for option in match.group(1).split(","):
        result.extend(expand_braces(head + option + tail))
    return result


def translate(pattern: str) -> str:
    """A regex source for one brace-free glob."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", index + 2)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = pattern[index + 1 : end]
                body = "^" + body[1:] if body.startswith("!") else body
                out.append("[" + body.replace("\\", "\\\\") + "]")
                index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


class GlobSet:
    """Several globs; `matches(relative_path)` is true when any of them matches."""

    def __init__(self, patterns: Iterable[str]) -> None:
        names: list[str] = []
        paths: list[str] = []
        self.patterns = [p.strip() for p in patterns if p and p.strip()]
        for raw in self.patterns:
            for pattern in expand_braces(raw.lstrip("/")):
                if "/" in pattern.rstrip("/"):
                    paths.append(translate(pattern.rstrip("/")))
                else:
                    names.append(translate(pattern.rstrip("/")))
        try:
            self._names = re.compile(r"(?:\A|/)(?:" + "|".join(names) + r")(?=/|\Z)") if names else None
            self._paths = re.compile("|".join(f"(?:{p})" for p in paths) + r"(?:/.*)?\Z") if paths else None
        except re.error as exc:
            raise InvalidArgument(f"bad glob in {self.patterns!r}: {exc}") from exc

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: str, relative: str | None = None) -> bool:
        """`path` is absolute; `relative` is the same path relative to the search folder."""
        if self._names is not None and self._names.search(path):
            return True
        if self._paths is not None:
            if self._paths.match(path.lstrip("/")):
                return True
            if relative is not None and self._paths.match(relative):
                return True
        return False


def glob_set(patterns: str | Sequence[str] | None) -> GlobSet:
    """A GlobSet from one pattern, a comma-separated string, or a list."""
    if patterns is None:
        return GlobSet([])
    if isinstance(patterns, str):
        return GlobSet(_split_commas(patterns))
    return GlobSet(list(patterns))


def _split_commas(text: str) -> list[str]:
    """Split at commas outside braces: `*.{ts,tsx},docs/*` -> [`*.{ts,tsx}`, `docs/*`]."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts
