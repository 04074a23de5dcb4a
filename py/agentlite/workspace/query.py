"""A search query compiled for bounded time: `re` over spans its degree allows, under a budget.

`regex_guard.check` admits a pattern with a degree d: one `re` call over s characters costs at most
about s ** d steps. A text is searched in line-aligned pieces of at most SPANS[d] characters (a linear
pattern, d = 1, sees 200,000 at once: a file of the usual size in one call; `pos` and
`endpos`, so `^`, `$`, `\\b` and lookbehind see the real text); a line longer than that is searched in
windows of the span that overlap by half, so there a match longer than half the span can be missed,
and a match never crosses the line end where two pieces meet. Alternatives that start alike and long
fixed repeats multiply each step (the check's `factor`): the span shrinks to match (a 3,000-character
literal ignoring case sees about 2,000 characters a call).
A pattern that starts with literal text finds where that text is first (in C, like `re` itself does)
and begins the next piece there. Between pieces the search asks its Budget: it hands the event loop
back every SLICE_SECONDS, so the worker is never held longer than that and one `re` call, and it ends
the search after SEARCH_SECONDS.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from agentlite.workspace.regex_guard import check
from agentlite.workspace.workspace_errors import BadPattern, InvalidArgument

# The most characters one `re` call sees, by degree, at factor 1 (divided by factor ** (1 / degree)),
# so that one call over the worst text takes about 25 ms or less in CPython on a busy 2-core machine,
# ignoring case (about 6x slower than matching case at degree 3 and 4): `\w+\(` over 1,200 word
# characters, `a*a*b` over 160 `a`s, `a*a*a*b` over 60 `a`s, `a{1000}b` over 6,000.
SPANS = {1: 200_000, 2: 1200, 3: 160, 4: 60}
MIN_SPAN = 16  # a pattern whose factor would make the span shorter than this is refused
LEAD_SPAN = 100_000  # a literal start (at most 8 characters) is looked for this far in one call
SEARCH_SECONDS = 5.0  # a search stops after this much work (a 20 MB grep takes about 0.1 s)
SLICE_SECONDS = 0.05  # and lets the worker answer the page at least this often
CLOCK_STEPS = 50_000  # the clock is read again after this many steps (about a ms of linear work)
CALL_STEPS = 1_000  # what one call costs beside its `re` steps, for that count: 50 calls at most


@dataclass
class Budget:
    """How much work one search may do: `spend(steps)` is False once it is used up.

    The worker answers nothing while Python runs, so a search hands the event loop back every
    `slice_seconds` (`breathe`) and stops itself after `seconds` of wall time. `steps` counts the
    worst-case steps of every `re` call (factor * span ** degree), which the tests bound instead of time.
    """

    seconds: float = SEARCH_SECONDS
    slice_seconds: float = SLICE_SECONDS
    clock: Callable[[], float] = time.perf_counter
    steps: int = 0
    calls: int = 0
    pauses: int = 0
    started: float = field(default=-1.0)
    slice_started: float = field(default=-1.0)
    now: float = field(default=-1.0)  # the clock when last read (by `left`)
    unread: int = 0  # steps (and calls, as CALL_STEPS each) since the clock was last read

    def spend(self, steps: int) -> bool:
        """Count one `re` call of `steps` worst-case steps; False once the time is used up (the clock is
        read when CLOCK_STEPS more have been spent: small linear calls do not each read it)."""
        self.steps += steps
        self.calls += 1
        self.unread += steps + CALL_STEPS
        if self.started >= 0 and self.unread < CLOCK_STEPS:
            return True  # the last reading found time left, and little was done since
        self.unread = 0
        return self.left()

    def left(self) -> bool:
        self.now = now = self.clock()
        if self.started < 0:
            self.started = self.slice_started = now
        return now - self.started <= self.seconds

    def due(self) -> bool:
        """This slice is used up, as of the clock's last reading (`spend` reads it before each call)."""
        return self.slice_started >= 0 and self.now - self.slice_started > self.slice_seconds

    async def breathe(self) -> None:
        """Let the worker answer what waits (the page's calls, a stop) when this slice is used up."""
        if self.due():
            await asyncio.sleep(0)
            self.pauses += 1
            self.slice_started = self.clock()


class OutOfBudget(Exception):
    """The search used up its Budget; the hits so far stand."""


@dataclass(frozen=True)
class Query:
    """A compiled, checked pattern; `search` is `re.Pattern.search` in bounded pieces."""

    pattern: re.Pattern[str]
    degree: int = 1
    factor: int = 1
    lead: re.Pattern[str] | None = None  # the literal start of every match: pieces begin where it is

    @cached_property
    def span(self) -> int:
        """The most characters one `re` call sees."""
        return max(MIN_SPAN, int(SPANS[self.degree] / self.factor ** (1 / self.degree)))

    async def search(self, text: str, pos: int = 0, budget: Budget | None = None) -> re.Match[str] | None:
        """The first match at or after `pos`; OutOfBudget when `budget` runs out first."""
        span = self.span
        budget = budget if budget is not None else Budget()
        whole, match = self.at_once(text, pos, budget)
        if whole:
            await budget.breathe()
            return match
        cost = span**self.degree * self.factor
        while True:
            if self.lead is not None:  # a C-speed scan to where a match can start
                found = await self._lead(text, pos, budget)
                if found < 0:
                    return None
                pos = found
            end, following = _piece(text, pos, span)
            if not budget.spend(cost):
                raise OutOfBudget
            await budget.breathe()
            match = self.pattern.search(text, pos, end)
            if match is not None or end >= len(text):
                return match
            pos = following

    def at_once(self, text: str, pos: int, budget: Budget) -> tuple[bool, re.Match[str] | None]:
        """(True, the first match at or after `pos`) when one `re` call does, as plain `re` searches: a
        linear pattern and the rest of the text within its span (no pieces, no literal scan first);
        (False, None) when `search` must cut the text. OutOfBudget when the budget is used up."""
        if self.degree != 1 or len(text) - pos > self.span:
            return False, None
        if not budget.spend((len(text) - pos) * self.factor):
            raise OutOfBudget
        return True, self.pattern.search(text, pos)

    async def _lead(self, text: str, pos: int, budget: Budget) -> int:
        """Where the literal start is next found from `pos` (-1: nowhere), LEAD_SPAN characters a call."""
        assert self.lead is not None
        overlap = len(self.lead.pattern)  # at least the prefix's length, escapes included
        while True:
            found = self.lead.search(text, pos, pos + LEAD_SPAN)
            if found is not None:
                return found.start()
            if pos + LEAD_SPAN >= len(text):
                return -1
            if not budget.spend(LEAD_SPAN * overlap):
                raise OutOfBudget
            await budget.breathe()
            pos += LEAD_SPAN - overlap


def _piece(text: str, pos: int, span: int) -> tuple[int, int]:
    """(end of the piece from `pos`, where the next starts): whole lines, or a window of a long line."""
    limit = pos + span
    if limit >= len(text):
        return len(text), len(text)
    cut = text.rfind("\n", pos, limit)
    if cut >= pos:
        return cut, cut + 1
    return limit, pos + span // 2


def compile_query(
    query: str, *, regex: bool = False, case_sensitive: bool | None = True, whole_word: bool = False
) -> Query:
    """The query for a search; `case_sensitive=None` is smart case (sensitive iff a capital is typed)."""
    if not isinstance(query, str) or query == "":
        raise InvalidArgument("the search query is empty")
    if case_sensitive is None:
        case_sensitive = query != query.lower()
    source = query if regex else re.escape(query)
    if whole_word:
        source = rf"\b(?:{source})\b"
    flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
    try:
        pattern = re.compile(source, flags)
        verdict = check(source, flags)
    except re.error as exc:
        raise BadPattern(
            f"the regex {query!r} is invalid: {exc.msg} at position {exc.pos}; "
            "fix it, or search with regex=false for literal text"
        ) from exc
    if verdict.factor > (SPANS[verdict.degree] / MIN_SPAN) ** verdict.degree:
        raise BadPattern(
            f"the regex {query!r} looks at too many characters at each place (long fixed repeats such as "
            "`a{1000}`, or a lookaround repeated many times); search for a shorter part of it"
        )
    lead = re.compile(re.escape(verdict.prefix), flags) if len(verdict.prefix) >= 2 else None
    return Query(pattern, verdict.degree, verdict.factor, lead)
