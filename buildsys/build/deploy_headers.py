"""The deployment headers file `_headers` (web/_headers, copied to dist/): read as the static hosts read it.

Netlify and Cloudflare Pages take the response headers of each path from it; `python build.py serve` (and
so every end-to-end test) sends what it says the same way, so the tests exercise what a deployment sends.
The syntax kept here is the common part: `#` comments, a path on its own line (exact, or ending in `*`
for everything under it), then indented `Name: value` lines. Rules apply in file order and a later rule
that names a header again replaces it (Netlify; Cloudflare joins the two, which the file is written to
survive: docs/deploying.md).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

FILE = "_headers"


@dataclass(frozen=True)
class Rule:
    path: str  # "/x.html", or "/x/*"
    headers: tuple[tuple[str, str], ...]

    def matches(self, url_path: str) -> bool:
        if self.path.endswith("*"):
            return url_path.startswith(self.path[:-1])
        return url_path == self.path


class HeadersFileError(ValueError):
    """A line the hosts would not read as this module does."""


def parse(text: str) -> list[Rule]:
    rules: list[Rule] = []
    path: str | None = None
    headers: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            if path is not None:
                rules.append(Rule(path, tuple(headers)))
            path, headers = line.strip(), []
            if not path.startswith("/"):
                raise HeadersFileError(f"line {number}: a path starts with /: {line!r}")
            continue
        name, colon, value = line.strip().partition(":")
        if path is None or not colon or not name.strip() or not value.strip():
            raise HeadersFileError(f"line {number}: not `Name: value` under a path: {line!r}")
        headers.append((name.strip(), value.strip()))
    if path is not None:
        rules.append(Rule(path, tuple(headers)))
    return rules


def headers_for(rules: list[Rule], url_path: str) -> dict[str, str]:
    """The headers of `url_path` (no query): every matching rule in order, a later one replacing a name."""
    found: dict[str, tuple[str, str]] = {}
    for rule in rules:
        if rule.matches(url_path):
            found.update({name.lower(): (name, value) for name, value in rule.headers})
    return dict(found.values())


@functools.lru_cache(maxsize=8)
def _rules(path: str, mtime_ns: int) -> list[Rule]:
    return parse(Path(path).read_text(encoding="utf-8"))


def rules_in(root: str | os.PathLike[str]) -> list[Rule]:
    """The rules of the `_headers` file in a served folder (none when it has none), read once per change."""
    path = os.path.join(root, FILE)
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        return []
    return _rules(path, mtime)
