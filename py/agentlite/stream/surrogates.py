"""UTF-16 surrogate pairs cut between deltas.

JSON escapes a character outside the BMP as two UTF-16 halves (`\\ud83d\\ude00` is 😀). Providers cut
deltas anywhere, so one delta may end with the high half and the next start with the low one; decoded on
its own, each delta then holds a lone surrogate, which is no character (it cannot be encoded as UTF-8,
shown, or sent to the page). A `SurrogateJoiner` holds a trailing high half back until the next piece
arrives; `mended()` pairs the halves that meet and turns a half that stays alone into U+FFFD.
"""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def has_surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def mended(text: str) -> str:
    """`text` with adjacent halves joined into their character and lone halves as U+FFFD."""
    if not has_surrogates(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def paired(text: str) -> str | None:
    """`text` with adjacent halves joined; None when a lone half is left (strict readers fail on it)."""
    if not has_surrogates(text):
        return text
    try:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        return None


def split_high(text: str) -> tuple[str, str]:
    """(text, held): a trailing high half is held, because the next piece may bring its low half."""
    if text and "\ud800" <= text[-1] <= "\udbff":
        return text[:-1], text[-1]
    return text, ""


def mended_value(value: Any, source: str | None = None) -> Any:
    """A parsed JSON value with lone halves mended in every string (a file written from a lone half could
    not even be encoded); `source`, the JSON text, is checked first so that ordinary values are not walked."""
    if source is not None and _ESCAPED_SURROGATE.search(source) is None and not has_surrogates(source):
        return value
    return _mend_strings(value)


def _mend_strings(value: Any) -> Any:
    if isinstance(value, str):
        return mended(value)
    if isinstance(value, dict):
        return {mended(str(key)): _mend_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_mend_strings(item) for item in value]
    return value


class SurrogateJoiner:
    """Text pieces of one channel in, text without lone halves out, across any cut between pieces."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, text: str) -> str:
        text, self._held = split_high(self._held + text)
        return mended(text)

    def close(self) -> str:
        """A high half that no low half followed, as U+FFFD ("" when nothing is held)."""
        held, self._held = self._held, ""
        return mended(held)
