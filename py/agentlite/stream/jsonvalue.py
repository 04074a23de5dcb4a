"""JSON parsing that fails with a value, never an exception, on anything a stream can contain."""

from __future__ import annotations

import json
import math
from typing import Any

_MISSING = object()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_LENIENT = json.JSONDecoder(parse_constant=_reject_constant, strict=False)  # raw newlines in strings


def loads(text: str, lenient: bool = False) -> Any:
    """The value of `text`, or `MISSING` when it is not one complete JSON value.

    `lenient` accepts raw control characters (a literal newline) inside strings, which models write
    when they put a file into a JSON string by hand; the reading is unambiguous.
    """
    try:
        return (_LENIENT if lenient else _DECODER).decode(text)
    except (ValueError, RecursionError):
        return _MISSING


def raw_decode(text: str, start: int, lenient: bool = False) -> tuple[Any, int, bool]:
    """(value, end, incomplete): the JSON value starting at `start` and the index after it.

    On failure the value is `MISSING` and `incomplete` tells whether more text could still complete it
    (the error is at the end of the text, or a string is open).
    """
    try:
        value, end = (_LENIENT if lenient else _DECODER).raw_decode(text, start)
        return value, end, False
    except json.JSONDecodeError as error:
        at_end = error.pos >= len(text.rstrip())
        return _MISSING, error.pos, at_end or error.msg.startswith("Unterminated string")
    except (ValueError, RecursionError):
        return _MISSING, start, False


def missing(value: Any) -> bool:
    return value is _MISSING


def finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
