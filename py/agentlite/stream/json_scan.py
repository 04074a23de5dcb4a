"""An incremental scanner of JSON structure: nesting, strings and escapes, no values.

The prompt dialects need to know, piece by piece, whether an object that began on a line has closed,
is still open, or can no longer be JSON; parsing the whole text again at every piece would be quadratic.
"""

from __future__ import annotations

import re

_IN_STRING = re.compile(r'["\\]')
_OUTSIDE = re.compile(r'[{}\[\]"]')
_CLOSER = {"}": "{", "]": "["}


class JsonScanner:
    """Feed text; `closed_at` reports where the top-level value ended, `broken` a mismatched closer."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.in_string = False
        self.escape = False
        self.broken = False
        self.broken_at = 0  # index, in the text of the feed that broke, of the mismatched closer
        self.last = ""  # the last character outside strings that is not blank
        self.started = False

    def feed(self, text: str) -> int | None:
        """Scan `text`; the index just after the top-level closer when the value closed in it, else None."""
        position = 0
        while position < len(text) and not self.broken:
            if self.in_string:
                position = self._string(text, position)
                continue
            match = _OUTSIDE.search(text, position)
            end = match.start() if match else len(text)
            self._note_last(text[position:end])
            if match is None:
                return None
            char = match.group()
            position = match.end()
            self.last = char
            if self._structural(char):
                return position
            if self.broken:
                self.broken_at = match.start()
        return None

    def _string(self, text: str, position: int) -> int:
        if self.escape:
            self.escape = False
            return position + 1
        match = _IN_STRING.search(text, position)
        if match is None:
            return len(text)
        if match.group() == "\\":
            self.escape = True
            return match.end()
        self.in_string = False
        self.last = '"'
        return match.end()

    def _structural(self, char: str) -> bool:
        """Apply one structural character; True when it closed the top-level value."""
        if char == '"':
            self.in_string = True
            self.started = True
            return False
        if char in "{[":
            self.stack.append(char)
            self.started = True
            return False
        if not self.stack or self.stack[-1] != _CLOSER[char]:
            self.broken = True
            return False
        self.stack.pop()
        return not self.stack

    def _note_last(self, segment: str) -> None:
        stripped = segment.rstrip()
        if stripped:
            self.last = stripped[-1]
            self.started = True
