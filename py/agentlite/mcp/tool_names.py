"""The names the model sees: `mcp__<server>__<tool>`.

The server part is the server's slug: its reported name, lower-cased, every run of characters other
than `a-z0-9` made one `_`, trimmed of `_` (`"Test Tools Server"` -> `test_tools_server`). The tool part
is the tool's own name with every character a function name may not hold (`A-Za-z0-9_-`) made `_`. A
name over the 64 characters function names may have keeps its start and ends with a short hash of the
whole, so two long names stay apart.
"""

from __future__ import annotations

import hashlib
import re

PREFIX = "mcp__"
MAX_NAME = 64
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]")


def slug(name: str, fallback: str = "server") -> str:
    return _NOT_SLUG.sub("_", name.lower()).strip("_") or fallback


def tool_name(server: str, tool: str) -> str:
    name = f"{PREFIX}{server}__{_NOT_NAME.sub('_', tool) or 'tool'}"
    if len(name) <= MAX_NAME:
        return name
    digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:8]
    return f"{name[: MAX_NAME - 9]}_{digest}"


def is_remote(name: str) -> bool:
    return name.startswith(PREFIX)


def server_of(name: str) -> str | None:
    """The server slug of a model-facing name, None for a name that is not a remote tool's."""
    if not is_remote(name):
        return None
    server, sep, _tool = name[len(PREFIX) :].partition("__")
    return server if sep else None
