"""Ruff's settings for the page's checker, from the project's `ruff.toml`, `.ruff.toml` or `pyproject.toml`.

Ruff's web build takes its settings as an object shaped like `ruff.toml`. The keys a single file's check can
honour are mapped (the line length, the target version, the rules selected and ignored, the preview flag);
the plugins' own tables (`[tool.ruff.lint.isort]` ...) are passed on as they are; paths, excludes and
per-file settings are left out, as the page checks one text at a time. A config that
does not parse is skipped: Ruff's defaults then apply, and the syntax check always does.
"""

from __future__ import annotations

import tomllib
from typing import Any

TOP = ("line-length", "indent-width", "target-version", "preview")
LINT = ("select", "extend-select", "ignore", "extend-ignore", "preview")
PATH_TABLES = ("per-file-ignores", "extend-per-file-ignores")  # by path: the page checks texts, not paths


def ruff_settings(configs: dict[str, str]) -> dict[str, Any]:
    """The settings of the first config that has any, in Ruff's own order of precedence."""
    for path, table in (("/.ruff.toml", ()), ("/ruff.toml", ()), ("/pyproject.toml", ("tool", "ruff"))):
        text = configs.get(path)
        if text is None:
            continue
        section = _section(text, table)
        if section is not None:
            return _mapped(section)
    return {}


def _section(text: str, table: tuple[str, ...]) -> dict[str, Any] | None:
    try:
        found: Any = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeError):
        return None
    for key in table:
        found = found.get(key) if isinstance(found, dict) else None
    return found if isinstance(found, dict) else None


def _mapped(section: dict[str, Any]) -> dict[str, Any]:
    settings: dict[str, Any] = {key: section[key] for key in TOP if _scalar(section.get(key))}
    lint_table = section.get("lint")
    lint_source = lint_table if isinstance(lint_table, dict) else {}
    lint: dict[str, Any] = {}
    for key in LINT:
        value = lint_source.get(key, section.get(key))  # the older top-level spelling too
        if key == "preview" and isinstance(value, bool):
            lint[key] = value
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            lint[key] = value[:200]
    for key, value in lint_source.items():
        if isinstance(value, dict) and key not in PATH_TABLES:
            lint[key] = value
    if lint:
        settings["lint"] = lint
    return settings


def _scalar(value: Any) -> bool:
    return isinstance(value, (int, str, bool)) and not isinstance(value, float)
