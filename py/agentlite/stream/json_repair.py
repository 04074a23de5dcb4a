"""The one repair a malformed tool-call object gets, applied only when it is unambiguous (PROTOCOL §2).

Unambiguous: closing braces or brackets missing at the end (the text ends outside a string), a trailing
comma before a closer, closers in excess at the end, and single quotes in place of double quotes when
the text has no double quote at all (then every `'` is a delimiter, or the result does not parse).
Anything else (a string cut off, a missing comma, quotes of both kinds) has more than one reading and is
reported back to the model instead.
"""

from __future__ import annotations

import re
from typing import Any

from agentlite.stream import jsonvalue
from agentlite.stream.json_scan import JsonScanner

_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def repaired(text: str) -> tuple[Any, str] | None:
    """(value, what was fixed) when one unambiguous repair makes `text` parse, else None."""
    fixes: list[str] = []
    if "'" in text and '"' not in text:
        text = text.replace("'", '"')
        fixes.append("replaced single quotes with double quotes")
    candidate = _drop_trailing_commas(text)
    if candidate != text:
        fixes.append("removed a trailing comma")
    candidate, dropped = _drop_excess_closers(candidate)
    if dropped:
        fixes.append(f"removed {dropped} extra closing bracket(s)")
    scanner = JsonScanner()
    scanner.feed(candidate)
    if scanner.in_string or scanner.broken:
        return None
    if scanner.stack:
        if scanner.last in (",", ":", "{", "["):
            return None
        closers = "".join("}" if opener == "{" else "]" for opener in reversed(scanner.stack))
        candidate = _drop_trailing_commas(candidate.rstrip() + closers)
        fixes.append(f"added the missing {closers!r}")
    if not fixes:
        return None
    value = jsonvalue.loads(candidate)
    return None if jsonvalue.missing(value) else (value, ", ".join(fixes))


def _drop_trailing_commas(text: str) -> str:
    """Remove `,` before `}` or `]` outside strings."""
    pieces: list[str] = []
    position = 0
    for match in _STRING.finditer(text):
        pieces.append(_TRAILING_COMMA.sub(r"\1", text[position : match.start()]))
        pieces.append(match.group())
        position = match.end()
    tail = text[position:]
    if tail.count('"') == 0:
        tail = _TRAILING_COMMA.sub(r"\1", tail)
    pieces.append(tail)
    return "".join(pieces)


def _drop_excess_closers(text: str) -> tuple[str, int]:
    """Cut closers after the top-level value has closed: `{"a":1}}` → `{"a":1}`."""
    scanner = JsonScanner()
    end = scanner.feed(text)
    if end is None:
        return text, 0
    rest = text[end:].strip()
    if rest and not rest.strip("}]"):
        return text[:end], len(rest)
    return text, 0
