"""The characters a part of a parsed regex can match, on a sample alphabet.

`regex_guard` asks whether two parts can match the same character (a repeat and what follows it; two
alternatives). The sample alphabet is Latin-1, a few characters of other scripts and classes, and every
code point the pattern itself names (its literals and range ends): two sets built from literals and
ranges overlap exactly when they share one of those points, so the answer is exact for them and a
close estimate for Unicode categories.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

_OTHERS = "\u00e9\u00df\u0394\u0416\u05d0\u0663\u0e01\u4e2d\u3000\u2028\u00a0\u1680\U0001f600"
_BASE = frozenset(chr(code) for code in range(256)) | frozenset(_OTHERS)
_CATEGORIES = {
    sre.CATEGORY_DIGIT: r"\d",
    sre.CATEGORY_NOT_DIGIT: r"\D",
    sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S",
    sre.CATEGORY_WORD: r"\w",
    sre.CATEGORY_NOT_WORD: r"\W",
}
_LITERALS = {sre.LITERAL, sre.LITERAL_IGNORE, sre.LITERAL_UNI_IGNORE, sre.LITERAL_LOC_IGNORE}
_NOT_LITERALS = {
    sre.NOT_LITERAL,
    sre.NOT_LITERAL_IGNORE,
    sre.NOT_LITERAL_UNI_IGNORE,
    sre.NOT_LITERAL_LOC_IGNORE,
}
_CLASSES = {sre.IN, sre.IN_IGNORE, sre.IN_UNI_IGNORE, sre.IN_LOC_IGNORE}


class Alphabet:
    """Sample characters for one pattern, and the subset each one-character item matches."""

    def __init__(self, data: Any, *, ignore_case: bool, dot_all: bool) -> None:
        self.chars = _BASE | _named(data)
        self.ignore_case = ignore_case
        self.dot_all = dot_all

    def of(self, op: Any, av: Any) -> frozenset[str]:
        """The sample characters one character item (a literal, a class, `.`) matches."""
        if op == sre.ANY:
            return self.chars if self.dot_all else self.chars - {"\n"}
        if op in _LITERALS:
            return self._cased({chr(av)})
        if op in _NOT_LITERALS:
            return self.chars - self._cased({chr(av)})
        if op in _CLASSES:
            return self._class(av)
        return self.chars  # anything else the parser makes: assume it can match anything

    def _class(self, items: Any) -> frozenset[str]:
        found: set[str] = set()
        negate = False
        for op, av in items:
            if op == sre.NEGATE:
                negate = True
            elif op in _LITERALS:
                found.add(chr(av))
            elif op in (sre.RANGE, sre.RANGE_UNI_IGNORE):
                found.update(ch for ch in self.chars if av[0] <= ord(ch) <= av[1])
            elif op == sre.CATEGORY and av in _CATEGORIES:
                test = re.compile(_CATEGORIES[av]).fullmatch
                found.update(ch for ch in self.chars if test(ch))
            else:
                found.update(self.chars)
        chosen = self._cased(found)
        return self.chars - chosen if negate else chosen

    def _cased(self, chars: set[str]) -> frozenset[str]:
        if not self.ignore_case:
            return frozenset(chars)
        return frozenset(chars | {c.swapcase() for c in chars if len(c.swapcase()) == 1})


def _named(data: Any) -> frozenset[str]:
    """Every code point the parsed pattern names (literals, range ends; a few harmless extras)."""
    named: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= 0x10FFFF:
            named.add(chr(item))
        elif isinstance(item, _parser.SubPattern):
            stack.append(item.data)
    return frozenset(named)
