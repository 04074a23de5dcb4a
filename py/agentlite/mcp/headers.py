"""Header values of the stateless revision: a value that would not survive an HTTP header as it is
(not printable ASCII, spaces at an end, or itself looking like the wrapper) travels as
`=?base64?<UTF-8 base64>?=`, so the server can compare it with the body exactly."""

from __future__ import annotations

import base64
import binascii
import re

_WRAPPED = re.compile(r"=\?base64\?(?P<payload>.*)\?=", re.DOTALL)
_PRINTABLE = re.compile(r"[\x20-\x7e]*")


def header_value(value: str) -> str:
    if _PRINTABLE.fullmatch(value) and value == value.strip() and not _WRAPPED.fullmatch(value):
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


def read_header_value(value: str) -> str | None:
    """The value `header_value` wrapped; None for a wrapper that does not decode exactly."""
    wrapped = _WRAPPED.fullmatch(value)
    if wrapped is None:
        return value
    payload = wrapped.group("payload")
    try:
        raw = base64.b64decode(payload, validate=True)
        if base64.b64encode(raw).decode("ascii") != payload:
            return None
        return raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
