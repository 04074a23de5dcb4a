"""The names the model sees: `mcp__<server>__<tool>`.

The server part is the server's slug: its reported name, lower-cased, every run of characters other
than `a-z0-9` made one `_`, trimmed of `_` (`"Test Tools Server"` -> `test_tools_server`), and at most
`MAX_SLUG` characters (cut, then trimmed of `_` again). A slug never holds `__` nor starts or ends with
`_`, so `mcp__<slug>__` is whole at the start of every name of its server (even a cut one) and no other
server's name starts with it. Approvals still match a tool to its server by registration
(`Tool.server`), never by reading its name. The tool part
is the tool's own name with every character a function name may not hold (`A-Za-z0-9_-`) made `_`. A
name over the 64 characters function names may have keeps its start and ends with a short hash of the
whole, so two long names stay apart.
"""

from __future__ import annotations

import hashlib
import re

PREFIX = "mcp__"
MAX_NAME = 64
MAX_SLUG = 24  # `mcp__` + 24 + `__` leaves 33 characters of the tool's own name before any cut
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]")


def slug(name: str, fallback: str = "server") -> str:
    """The slug of a reported name (only its first 256 characters are read)."""
    return _NOT_SLUG.sub("_", name[:256].lower()).strip("_")[:MAX_SLUG].rstrip("_") or fallback


def unique_slug(name: str, taken: set[str]) -> str:
    """The slug of `name`, made unique among `taken` with `_2`, `_3`... within `MAX_SLUG` characters."""
    base = slug(name)
    found, n = base, 2
    while found in taken:
        suffix = f"_{n}"
        found, n = base[: MAX_SLUG - len(suffix)].rstrip("_") + suffix, n + 1
    return found


def tool_name(server: str, tool: str) -> str:
    name = f"{PREFIX}{server}__{_NOT_NAME.sub('_', tool) or 'tool'}"
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:8]
    return f"{name[: MAX_NAME - 9]}_{digest}"


def is_remote(name: str) -> bool:
    return name.startswith(PREFIX)
