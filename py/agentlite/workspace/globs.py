"""Include / exclude globs for search and listing.

A pattern without `/` matches any name in the path (`*.py`, `node_modules`); a pattern with `/`
matches the path relative to the search folder or to the root (`src/**/*.ts`). `*` and `?` stay
inside one name, `**` crosses folders, `[abc]` is a class and `{ts,tsx}` lists alternatives.

The globs come from the model, so they compile to regexes that cannot backtrack out of control (stars
as atomic earliest fits, `**` blocks placed at their earliest fit) and expand to at most MAX_PATTERNS
patterns; past a cap the model gets an InvalidArgument saying what to change (docs/search.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from agentlite.workspace.workspace_errors import InvalidArgument

MAX_GLOB_CHARS = 500
MAX_PATTERNS = 64  # what one GlobSet's globs expand to, braces and `**` forms counted
MAX_BRACE_DEPTH = 4
_STAR_RUN = re.compile(r"\*{2,}")


def expand_braces(pattern: str, limit: int = MAX_PATTERNS) -> list[str]:
    """`*.{ts,tsx}` -> [`*.ts`, `*.tsx`] (nested braces expand too), at most `limit` patterns.

    Depth first, so the work is bounded by what is returned: `{a,b}` thirty times is refused after
    `limit` patterns, not after 2^30.
    """
    if len(pattern) > MAX_GLOB_CHARS:
        raise InvalidArgument(f"the glob {pattern[:40]!r}… is longer than {MAX_GLOB_CHARS} characters")
    if _depth(pattern) > MAX_BRACE_DEPTH:
        raise InvalidArgument(
            f"the glob {pattern!r} nests braces more than {MAX_BRACE_DEPTH} deep; write the patterns out"
        )
    result: list[str] = []
    stack = [pattern]
    while stack:
        current = stack.pop()
        match = re.search(r"\{([^{}]*)\}", current)
        if not match:
            result.append(current)
            if len(result) > limit:
                raise InvalidArgument(
                    f"the globs expand to more than {limit} patterns; use fewer braces or alternatives"
                )
            continue
        head, tail = current[: match.start()], current[match.end() :]
        stack.extend(head + option + tail for option in reversed(match.group(1).split(",")))
    return result


def _depth(pattern: str) -> int:
    depth = deepest = 0
    for char in pattern:
        depth += (char == "{") - (char == "}" and depth > 0)
        deepest = max(deepest, depth)
    return deepest


def globstar_forms(pattern: str) -> list[str]:
    """A pattern whose `**` shares a name with other characters (`src/**.ts`) as its two readings:
    `*` within the name, or `*/**/*` across folders. Runs of stars in a whole name become `**`."""
    forms = [""]
    for index, name in enumerate(pattern.split("/")):
        sep = "/" if index else ""
        if _STAR_RUN.fullmatch(name) or not _STAR_RUN.search(name):
            options = [_STAR_RUN.sub("**", name)]
        else:
            options = [_STAR_RUN.sub("*", name), _STAR_RUN.sub("*/**/*", name, count=1)]
        forms = [form + sep + option for form in forms for option in options]
        if len(forms) > MAX_PATTERNS:
            raise InvalidArgument(f"the glob {pattern!r} has too many `**` inside names; use `/**/`")
    return forms


def name_regex(name: str) -> str:
    """A regex for one name (no `/`) that cannot backtrack out of control: `*a*b` becomes
    `(?>[^/]*?a)[^/]*b`, the earliest `a` being always as good as a later one."""
    pieces: list[list[str]] = [[]]
    index = 0
    while index < len(name):
        char = name[index]
        if char == "*":
            pieces.append([])
        elif char == "?":
            pieces[-1].append("[^/]")
        elif char == "[" and name.find("]", index + 2) >= 0:
            end = name.find("]", index + 2)
            body = name[index + 1 : end]
            body = "^" + body[1:] if body.startswith("!") else body
            pieces[-1].append("[" + body.replace("\\", "\\\\") + "]")
            index = end
        else:
            pieces[-1].append(re.escape(char))
        index += 1
    texts = ["".join(piece) for piece in pieces]
    if len(texts) == 1:
        return texts[0]
    middle = "".join(f"(?>[^/]*?{text})" for text in texts[1:-1] if text)
    return texts[0] + middle + "[^/]*" + texts[-1]


def path_regex(pattern: str) -> str:
    """A regex for a brace-free pattern with `/`, matched from the start of a path. Names between
    two `**` form a block placed at its earliest fit, in an atomic group: a later fit never helps,
    as the `**` after it takes whatever the block left."""
    out: list[str] = []
    names = pattern.split("/")
    after_star = False
    block: list[str] = []
    for index, name in enumerate([*names, None]):
        if name is not None and name != "**":
            block.append(name_regex(name))
            continue
        if block:
            body = "/".join(block)
            lead = "/" if out else ""
            out.append(f"(?>{lead}(?:[^/]*+/)*?{body}(?=/|\\Z))" if after_star else lead + body)
            block = []
        if name == "**":
            after_star = True
            if index == len(names) - 1:
                out.append("/.*" if out else ".*")
    return "".join(out) + r"(?:/.*)?\Z"


class GlobSet:
    """Several globs; `matches(relative_path)` is true when any of them matches."""

    def __init__(self, patterns: Iterable[str]) -> None:
        names: list[str] = []
        paths: list[str] = []
        self.patterns = [p.strip() for p in patterns if p and p.strip()]
        for pattern in self._expanded():
            if "/" in pattern:
                paths += [path_regex(form) for form in globstar_forms(pattern)]
            else:
                names.append(name_regex(_STAR_RUN.sub("*", pattern)))
            if len(names) + len(paths) > MAX_PATTERNS:
                raise InvalidArgument(
                    f"the globs expand to more than {MAX_PATTERNS} patterns; use fewer `**`"
                )
        try:
            self._names = re.compile(r"(?:\A|/)(?:" + "|".join(names) + r")(?=/|\Z)") if names else None
            self._paths = re.compile("|".join(f"(?:{p})" for p in paths)) if paths else None
        except re.error as exc:
            raise InvalidArgument(f"bad glob in {self.patterns!r}: {exc}") from exc

    def _expanded(self) -> list[str]:
        """Every glob with its braces expanded, MAX_PATTERNS in all at most."""
        if len(self.patterns) > MAX_PATTERNS:
            raise InvalidArgument(f"too many globs ({len(self.patterns)}; at most {MAX_PATTERNS})")
        found: list[str] = []
        for raw in self.patterns:
            found += [p.rstrip("/") for p in expand_braces(raw.lstrip("/"), MAX_PATTERNS - len(found))]
        return found

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
