"""Lookarounds and atomic groups in the regex check: each is run again wherever the match reaches it, so
its cost is multiplied by the repeats around it and before it. Property: every pattern the check admits,
built from a grammar of lookarounds, atomic groups, repeats, alternatives and backreferences, searches an
adversarial line of 60 characters to the end before a generous CPU-time cutoff (a signal stops a runaway
`re` call, which checks for signals as it runs); never a timed assertion of speed."""

from __future__ import annotations

import asyncio
import re
import signal
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agentlite.workspace import BadPattern
from agentlite.workspace.query import SPANS, Budget, compile_query
from agentlite.workspace.regex_guard import MAX_DEGREE, check

CUTOFF_SECONDS = 10.0  # CPU seconds for all the lines of one pattern; degree 4 over 60 is 60 ** 4 steps
LENGTH = 60


def nested(depth: int, inner: str = "a*[bc]") -> str:
    """`(?:(?!…)a)*[bc]` nested `depth` times: each level runs the one inside at every place."""
    for _ in range(depth):
        inner = f"(?:(?!{inner})a)*[bc]"
    return inner


class Runaway(Exception):
    """A search went past the cutoff."""


@contextmanager
def cutoff(seconds: float) -> Iterator[None]:
    def stop(*_: object) -> None:
        raise Runaway

    previous = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def adversarial(source: str) -> list[str]:
    """Lines of 60 characters: runs of each letter the pattern names (and pairs of them), each with a
    tail that fails."""
    letters = sorted({ch for ch in source if ch.isalnum()} - set("dswbPAZ0123456789")) or ["a"]
    lines = [ch * LENGTH for ch in letters]
    lines += [(a + b) * (LENGTH // 2) for a in letters for b in letters if a < b]
    return [line + tail for line in lines[:6] for tail in ("!", "")]


def searched(source: str) -> bool:
    """True when the check refused `source`; else search every adversarial line to its end."""
    try:
        query = compile_query(source, regex=True)
    except BadPattern:
        return True
    with cutoff(CUTOFF_SECONDS):
        for line in adversarial(source):
            pos = 0
            while pos <= len(line):
                match = asyncio.run(query.search(line, pos, Budget(seconds=1e9)))
                if match is None:
                    break
                pos = max(match.end(), pos + 1)
    return False


_ATOMS = st.sampled_from(["a", "b", "c", "[ab]", "[bc]", ".", r"\w", "(a)", "(b)", r"\1", "(?<=a)", "$"])
_QUANTIFIERS = st.sampled_from(["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "++", "*+"])


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    group = st.sampled_from(["(?:{})", "(?={})", "(?!{})", "(?>{})", "({})"])
    wrapped = st.tuples(group, children, _QUANTIFIERS).map(lambda t: t[0].format(t[1]) + t[2])
    joined = st.lists(children, min_size=2, max_size=3).map("".join)
    either = st.lists(children, min_size=2, max_size=3).map("|".join)
    return wrapped | joined | either


_PATTERNS = st.recursive(st.tuples(_ATOMS, _QUANTIFIERS).map("".join), _combine, max_leaves=10)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PATTERNS)
@example(nested(6))
@example(nested(4))
@example(nested(2, "a*a*[bc]"))
@example("(?:(?!a*a*a*[bc])a)*c")
@example("(?=a*(?=a*a*[bc]))a")
@example("a*(?!a*a*[bc])c")
@example("(?:(?=a*[bc]))" + "{1000}")
def test_every_admitted_pattern_finishes_60_characters_within_its_bound(source: str) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(source)
    except (re.error, OverflowError, RecursionError):
        return
    searched(source)  # Runaway (a failure) when an admitted pattern runs past the cutoff


@pytest.mark.parametrize(
    "source",
    [nested(3), nested(2, "a*a*[bc]"), "(?:(?!a*a*a*[bc])a)*c", "(?:x(?=a*a*a*b))+", "a*a*(?!a*a*b)"],
)
def test_a_lookaround_run_again_by_repeats_is_refused_with_a_hint(source: str) -> None:
    with pytest.raises(BadPattern, match="lookaround") as caught:
        check(source, re.MULTILINE)
    assert "move it out of the repeat" in str(caught.value)


@pytest.mark.parametrize(
    ("source", "degree"),
    [
        (r"(?=.*x)y", 2),  # once per start: as a later `.*` would be
        (r"(?:(?!ab).)*", 2),  # a lookaround of fixed width costs a constant each time
        (nested(1), 3),  # its repeat inside, times the iterations around it
        (r"a*(?=a*b)", 3),  # `a*` gives back to it: entered at each place
        (r"a*b(?=.*x)", 2),  # `b` stops the giving back: entered once a start
        (r"(?>[^/]*?a)(?>[^/]*?b)[^/]*c", 2),  # a glob's atomic groups, one after another
        (r"\w++(?=.*x)", 2),  # a possessive repeat gives nothing back
    ],
)
def test_lookaround_degrees(source: str, degree: int) -> None:
    assert check(source, re.MULTILINE).degree == degree


def test_the_degree_never_passes_the_most_admitted() -> None:
    for depth in range(1, 8):
        try:
            assert check(nested(depth), re.MULTILINE).degree <= MAX_DEGREE
        except BadPattern:
            assert depth >= 3


@pytest.mark.parametrize("source", ["(?:(?=a*[bc])){60000}", r"\w+(?:a{1000}){1000}", "a{500000}b"])
def test_a_factor_the_shortest_span_cannot_absorb_is_refused(source: str) -> None:
    with pytest.raises(BadPattern, match="too many characters"):
        compile_query(source, regex=True)


def test_every_admitted_call_is_within_the_most_steps_of_its_degree() -> None:
    for source in ["(?:(?=a*[bc])){1000}", "a{100000}b", r"\w+a{3000}", "(?:x|y){10}a*a*a*b"]:
        query = compile_query(source, regex=True)
        assert query.span**query.degree * query.factor <= SPANS[query.degree] ** query.degree
