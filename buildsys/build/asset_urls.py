"""Content-named URLs for the page's own bundle and style sheet: `app.js?v=<sha256 prefix>`.

dist/index.html is the one file whose URL never changes (docs/contract.md), so it names the files it
loads by their content; `python build.py serve` sends such a URL as immutable (buildsys/build/serve.py) and a
returning visit loads them from the HTTP cache without asking. The files keep their names, so the
service worker (which matches by path) and every other reference to them are unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path

from buildsys.build.serve import MIN_VERSION_CHARS, VERSION_PARAM
from buildsys.common import sha256_file

PAGE = "index.html"
VERSIONED = ("start.js", "app.js", "styles.css")
_REFERENCE = re.compile(
    r'(?P<attr>\b(?:src|href)=")(?P<name>' + "|".join(map(re.escape, VERSIONED)) + r')(?:\?[^"]*)?"'
)


def version(file: Path) -> str:
    """The `v` of a file's URL: the start of its sha256."""
    return sha256_file(file)[:MIN_VERSION_CHARS]


def stamp(page: str, versions: dict[str, str]) -> str:
    """`page` with each reference to a versioned file carrying `?v=` of its current content."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in versions:
            return match[0]
        return f'{match["attr"]}{name}?{VERSION_PARAM}={versions[name]}"'

    return _REFERENCE.sub(replace, page)


def write(dist: Path) -> dict[str, str]:
    """Stamp dist/index.html in place (again on every build: idempotent); return {file: version}."""
    versions = {name: version(dist / name) for name in VERSIONED if (dist / name).is_file()}
    page = dist / PAGE
    text = page.read_text()
    stamped = stamp(text, versions)
    if stamped != text:
        page.write_text(stamped)
    return versions
