"""A static check of a search regex: refuse what can backtrack exponentially, bound the rest.

Python's `re` backtracks. A repeat inside a repeat (`(a+)+b`, `(.*a){20}`), alternatives that start
alike inside a repeat (`(a|a)*b`) or a backreference can take 2^n steps on a line of n characters, and
the worker cannot interrupt a running `re` call. A pure-Python linear matcher would be 30-100x slower
than `re` on every search, so the search keeps `re` and admits only patterns whose worst case is a
polynomial of known degree: one `re` call over s characters costs at most about factor * s ** degree
steps, and `query.Query` never hands `re` more than the span that keeps this small.

The degree is 1 for the start positions, 1 more when the pattern has an open-ended repeat (a repeat
scans its run and gives it back), and 1 more for each such repeat that can give characters to what
follows it (they overlap) while another open-ended repeat comes later: `\\w+\\(` is 2, `.*foo.*bar`
and `a*a*b` are 3. A lookaround or atomic group is run again each time the match reaches it: its own
degree is multiplied (its exponent added to) by each repeat around it and each earlier repeat that
can give characters back to it, so `(?:(?!a*b)a)*` is 3, not 2. The factor counts the ways through
alternatives that start alike and the characters a fixed repeat looks at (`a{1000}`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

from agentlite.workspace.regex_chars import Alphabet
from agentlite.workspace.workspace_errors import BadPattern

MAX_DEGREE = 4
MAX_PATHS = 1000  # ways one attempt can go through alternatives that start alike, and fixed repeats
MAX_NODES = 5000  # parse-tree nodes looked at; a longer pattern is refused
MAX_WIDTH = 1 << 20
MAX_PREFIX = 8  # a literal start this long costs at most 8 compares a character to find
FREE_WIDTH = 32  # a pass over this many characters costs about one step of the degree's count
IGNORE_CASE_COST = 6  # each character compared costs about this much more when case is ignored
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}
_GROUPREFS = {
    sre.GROUPREF,
    sre.GROUPREF_EXISTS,
    sre.GROUPREF_IGNORE,
    sre.GROUPREF_LOC_IGNORE,
    sre.GROUPREF_UNI_IGNORE,
}
_NOTHING: frozenset[str] = frozenset()
NO_LOOK = -1  # a part without lookarounds or atomic groups


@dataclass(frozen=True)
class Follow:
    """What comes after a part of the pattern, to the end of the match."""

    first: frozenset[str] = _NOTHING  # characters it can start with (through parts that can be empty)
    repeats: bool = False  # it holds an open-ended repeat


@dataclass(frozen=True)
class Shape:
    """What the check learned of one part of a pattern."""

    first: frozenset[str] = _NOTHING  # characters a match of it can start with
    chars: frozenset[str] = _NOTHING  # characters it can consume anywhere
    nullable: bool = False  # it can match the empty string
    varying: bool = False  # it holds something that can give characters back (a repeat, a `?`)
    repeats: bool = False  # it holds an open-ended repeat (possessive ones too: they scan a run)
    paths: int = 1  # ways an attempt can go through it
    chain: int = 0  # its open-ended repeats that give characters to a later open-ended repeat
    choices: bool = False  # it holds alternatives that can start alike (or be empty)
    width: int = 1  # characters one pass looks at beyond its open-ended repeats
    ways: int = 0  # its repeats that can give characters back to what follows: n ** ways ways out
    look: int = NO_LOOK  # the exponent of its lookarounds' and atomic groups' work per entry


@dataclass(frozen=True)
class Verdict:
    """An admitted pattern: its degree (1: linear), the factor that multiplies each step, and the
    parse-tree nodes looked at."""

    degree: int
    factor: int
    nodes: int
    prefix: str = ""  # literal text every match starts with (after anchors), for a fast first scan


def check(source: str, flags: int) -> Verdict:
    """The degree of `source`, or BadPattern saying how to rewrite it."""
    parsed = _parser.parse(source, flags)
    flags = parsed.state.flags  # with the pattern's own (?i) / (?s)
    alphabet = Alphabet(parsed.data, ignore_case=bool(flags & re.IGNORECASE), dot_all=bool(flags & re.DOTALL))
    walker = _Walker(alphabet)
    shape = walker.sequence(list(parsed.data), Follow())
    if shape.paths > MAX_PATHS:
        raise BadPattern(
            f"the regex {source!r} has too many alternatives that start alike to try at each place; "
            "make the alternatives start differently, or search for one of them at a time"
        )
    degree = 1 + _cost(shape)
    if degree > MAX_DEGREE and 1 + shape.look > MAX_DEGREE:
        raise BadPattern(
            f"the regex {source!r} has a lookaround or atomic group holding a repeat where a repeat around "
            "it (or one before it that can give characters back) runs it again at each place, which "
            "multiplies its cost; move it out of the repeat (`(?:(?!x).)*` as `[^x]*`), make the "
            "repeats before it possessive (`\\w++`), or search for a simpler pattern"
        )
    if degree > MAX_DEGREE:
        raise BadPattern(
            f"the regex {source!r} has {degree - 1} open-ended repeats that can match the same text "
            f"(at most {MAX_DEGREE - 1}); replace some `.*` with a narrower class such as `[^,]*`, "
            "or search for a shorter part"
        )
    width = shape.width * (IGNORE_CASE_COST if flags & re.IGNORECASE else 1)
    return Verdict(degree, shape.paths * max(1, width // FREE_WIDTH), walker.nodes, _prefix(parsed.data))


class _Walker:
    """Walks the parse tree once, from the end of each sequence back, refusing exponential shapes."""

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.nodes = 0

    def sequence(self, items: list[Any], follow: Follow) -> Shape:
        shapes: list[Shape] = []
        gives: list[int] = []  # per part: its own repeat gives characters back to what follows
        chain = 0
        paths = 1
        for op, av in reversed(items):
            shape = self.item(op, av, follow)
            overlap = shape.chars & follow.first
            gave = op in _REPEATS and bool(overlap) and shape.varying and av[1] > 1
            if gave and follow.repeats:
                chain += 1  # it gives characters back one by one, and each try rescans a later run
            elif op in _REPEATS and overlap and shape.varying and av[1] == 1:
                paths *= 2  # an optional part that may have to give its characters back
            shapes.append(shape)
            gives.append(int(gave))
            first = shape.first | follow.first if shape.nullable else shape.first
            follow = Follow(first, follow.repeats or shape.repeats)
        shapes.reverse()
        gives.reverse()
        ways = 0
        look = NO_LOOK
        for shape, gave in zip(shapes, gives, strict=True):
            paths = min(paths * shape.paths, MAX_PATHS + 1)
            if shape.look != NO_LOOK:
                look = max(look, ways + shape.look)  # entered once per way the parts before it end
            ways += shape.ways + gave
        return Shape(
            first=_first(shapes),
            chars=frozenset().union(*(s.chars for s in shapes)),
            nullable=all(s.nullable for s in shapes),
            varying=any(s.varying for s in shapes),
            repeats=any(s.repeats for s in shapes),
            paths=paths,
            chain=chain + sum(s.chain for s in shapes),
            choices=any(s.choices for s in shapes),
            width=min(sum(s.width for s in shapes), MAX_WIDTH),
            ways=ways,
            look=look,
        )

    def item(self, op: Any, av: Any, follow: Follow) -> Shape:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise BadPattern(
                f"the query is too long (over {MAX_NODES} parts); search for a shorter part of it"
            )
        if op in _GROUPREFS:
            raise BadPattern(
                "backreferences (`\\1`, `(?P=name)`) and conditional groups can take exponential time "
                "and are not supported; search for the literal text instead"
            )
        if op in _REPEATS:
            return self.repeat(op, av, follow)
        if op == sre.SUBPATTERN:
            return self.sequence(list(av[-1]), follow)
        if op == sre.BRANCH:
            return self.branch([self.sequence(list(alt), follow) for alt in av[1]])
        if op == sre.ATOMIC_GROUP:
            inner = self.sequence(list(av), Follow())
            # tried once per entry, never again from outside: nothing in it gives back to what follows;
            # its own cost counts once for each time the match reaches it (`look`)
            return Shape(
                inner.first,
                inner.chars,
                inner.nullable,
                repeats=inner.repeats,
                width=inner.width,
                look=_cost(inner),
            )
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            return self.lookaround(av[1])
        if op == sre.AT:
            return Shape(nullable=True, width=0)
        chars = self.alphabet.of(op, av)
        return Shape(first=chars, chars=chars)

    def lookaround(self, body: Any) -> Shape:
        """Atomic too, and it consumes nothing: it runs at every place tried, as a later repeat would.
        One that holds a repeat is taken to start with any character (a repeat before it gives back
        to it) and to cost at least a step of the degree's count (a fixed repeat of it multiplies)."""
        inner = self.sequence(list(body), Follow())
        cost = _cost(inner)
        if cost == 0:
            return Shape(nullable=True, repeats=inner.repeats, width=inner.width, look=0)
        return Shape(
            first=self.alphabet.chars,
            nullable=True,
            repeats=inner.repeats,
            width=max(inner.width, FREE_WIDTH),
            look=cost,
        )

    def repeat(self, op: Any, av: Any, follow: Follow) -> Shape:
        low, high, body = av
        inner = self.sequence(list(body), follow)
        many = high > 1
        if many and inner.varying:
            raise BadPattern(
                f"a repeat inside a group repeated {_count(low, high)} can take exponential time; use one "
                "repeat (`a+` for `(a+)+`), or make the inner one possessive (`\\w++`) so it cannot give "
                "characters back"
            )
        if many and inner.choices:
            raise BadPattern(
                f"alternatives that can start with the same character (or be empty) inside a group "
                f"repeated {_count(low, high)} can take exponential time; give each alternative a "
                "different first character (`(ab|ac)*` as `(a[bc])*`)"
            )
        fixed = high == low
        paths = inner.paths ** min(low, 20) if fixed and low > 1 else inner.paths
        entered = inner.look + 1 if many and inner.look != NO_LOOK else inner.look  # once an iteration
        return Shape(
            first=inner.first,
            chars=inner.chars,
            nullable=inner.nullable or low == 0,
            varying=(not fixed and op != sre.POSSESSIVE_REPEAT) or inner.varying,
            repeats=(not fixed and many) or inner.repeats,
            paths=min(paths, MAX_PATHS + 1),
            chain=inner.chain,
            choices=inner.choices,
            width=min(inner.width * (low if fixed else max(low, 1)), MAX_WIDTH),
            ways=inner.ways,
            look=entered,
        )

    def branch(self, alternatives: list[Shape]) -> Shape:
        """Alternatives that can start alike are all tried: their ways add up."""
        seen: frozenset[str] = _NOTHING
        overlapping = False
        for shape in alternatives:
            overlapping = overlapping or shape.nullable or bool(seen & shape.first)
            seen |= shape.first
        ways = [s.paths for s in alternatives]
        return Shape(
            first=seen,
            chars=frozenset().union(*(s.chars for s in alternatives)),
            nullable=any(s.nullable for s in alternatives),
            varying=any(s.varying for s in alternatives),
            repeats=any(s.repeats for s in alternatives),
            paths=min(sum(ways) if overlapping else max(ways), MAX_PATHS + 1),
            chain=max(s.chain for s in alternatives),
            choices=overlapping or any(s.choices for s in alternatives),
            width=max(s.width for s in alternatives),
            ways=max(s.ways for s in alternatives),
            look=max(s.look for s in alternatives),
        )


def _cost(shape: Shape) -> int:
    """The exponent of one entry's worst work: its rescans and runs, or its lookarounds' work."""
    return max(shape.chain + int(shape.repeats), shape.look)


def _prefix(items: Any) -> str:
    """The literal characters every match starts with, anchors (`^`, `\\b`) skipped."""
    chars: list[str] = []
    for op, av in items:
        if op == sre.AT and not chars:
            continue
        if op != sre.LITERAL or len(chars) >= MAX_PREFIX:
            break
        chars.append(chr(av))
    return "".join(chars)


def _first(shapes: list[Shape]) -> frozenset[str]:
    """The characters a run of parts can start with: through the ones that can be empty."""
    first: frozenset[str] = _NOTHING
    for shape in shapes:
        first |= shape.first
        if not shape.nullable:
            break
    return first


def _count(low: int, high: int) -> str:
    if high == sre.MAXREPEAT:
        return f"{low} or more times"
    return f"{low} to {high} times" if low != high else f"{low} times"
