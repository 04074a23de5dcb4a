"""The bounded regex search: hostile patterns are refused, safe ones search as `re` does, in pieces
whose worst case is counted (span ** degree steps per `re` call), never timed."""

from __future__ import annotations

import asyncio
import re
import warnings
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.workspace import BadPattern, Workspace
from agentlite.workspace.query import (
    CALL_STEPS,
    CLOCK_STEPS,
    SPANS,
    Budget,
    OutOfBudget,
    Query,
    compile_query,
)
from agentlite.workspace.regex_guard import MAX_NODES, check
from agentlite.workspace.search import SearchResult, search_texts
from tests.unit.workspace.helpers import PROFILE, aio, open_workspace

HOSTILE = [
    r"(a+)+b",
    r"(a|a)*b",
    r"(a*)*b",
    r"(.*a){20}",
    r"(a|aa)+$",
    r"(\w+\s?)+$",
    r"(?:a?){30}a{30}",
    r"(\w)\1",
    r"(?P<x>a)(?P=x)",
    r".*a.*b.*c.*d",
    "(a|a)" * 12,
]


@pytest.mark.parametrize("source", HOSTILE)
def test_hostile_patterns_are_refused_with_a_hint(source: str) -> None:
    with pytest.raises(BadPattern) as caught:
        compile_query(source, regex=True)
    assert caught.value.code == "bad_pattern"
    assert any(word in str(caught.value) for word in ("exponential", "repeats", "alternatives"))


@pytest.mark.parametrize(
    ("source", "degree"),
    [
        ("main", 1),
        (r"compute\('ab[0-9a-f]{2}", 1),
        (r"^def \w+\(", 2),
        (r"\w+\s*=\s*\w+", 2),
        (r"import .*foo", 2),
        (r".*foo.*bar", 3),
        (r"(\d++\.)+\d+", 3),
        (r"a*a*b", 3),
        (r"(?=.*x)y", 2),
        (r"(?:foo|bar)+", 2),
        (r"TODO|FIXME", 1),
    ],
)
def test_usual_patterns_are_admitted(source: str, degree: int) -> None:
    assert check(source, re.MULTILINE).degree == degree


def test_the_check_looks_at_a_bounded_number_of_nodes() -> None:
    assert check("(?:ab|cd)" * 300, 0).nodes <= MAX_NODES
    with pytest.raises(BadPattern, match="too long"):
        check("a" * (MAX_NODES + 1), 0)


# Atoms that never match a line end: a match that crosses one may be cut at a piece's edge (documented).
_ATOMS = st.sampled_from(["a", "b", "c", r"\w", "[ \t]", "[ab]", "[^a\n]", ".", r"\(", "_", "(?:ab|c)"])
_PIECES = st.tuples(_ATOMS, st.sampled_from(["", "", "+", "*", "?", "{2}", "{1,3}"])).map("".join)
_SAFE = st.lists(_PIECES, min_size=1, max_size=5).map("".join)


def _search(files: Iterable[tuple[str, str]], query: Query, **options: Any) -> SearchResult:
    return asyncio.run(search_texts(files, query, **options))


@settings(PROFILE)
@given(_SAFE, st.lists(st.text("ab c_(", max_size=60), max_size=12).map("\n".join))
def test_an_admitted_pattern_finds_the_hits_plain_re_finds(source: str, text: str) -> None:
    """Plain `re` over the whole text (as every search ran before the check) is the oracle."""
    try:
        query = compile_query(source, regex=True)
    except BadPattern:
        return
    whole = Query(re.compile(source, re.MULTILINE), degree=1)
    found = _search([("/f", text)], query, max_results=1000)
    assert found.hits == _search([("/f", text)], whole, max_results=1000).hits


def test_every_re_call_is_within_its_span_and_the_budget_counts_them() -> None:
    query = compile_query(r"\w+\(", regex=True)
    text = "a" * 50_000  # one line of 50,000 word characters: quadratic for one `re` call
    budget = Budget(seconds=1e9)
    assert asyncio.run(query.search(text, 0, budget)) is None
    span = SPANS[query.degree]
    assert budget.calls <= 2 * len(text) // span + 2
    assert budget.steps == budget.calls * span**query.degree


def test_a_search_that_uses_up_its_budget_stops_and_says_so() -> None:
    ticks = iter(range(10**6))
    budget = Budget(seconds=5, clock=lambda: next(ticks))  # one tick per `re` call
    query = compile_query(r".*x.*y", regex=True)
    files = [(f"/f{i}", ("x" * 300 + "\n") * 20) for i in range(50)]
    result = _search(files, query, budget=budget)
    assert result.stopped and budget.calls <= 7
    assert "stopped" in result.format() and result.to_dict()["stopped"] is True


def test_a_window_of_a_long_line_still_finds_a_short_match() -> None:
    query = compile_query(r"\w+\(", regex=True)
    text = "x" * 10_000 + " call(" + "y" * 10_000
    match = asyncio.run(query.search(text, 0, Budget(seconds=1e9)))
    assert match is not None and match.group() == "call("


def test_out_of_budget_is_raised_by_search() -> None:
    budget = Budget(seconds=-1)
    with pytest.raises(OutOfBudget):
        asyncio.run(compile_query(r"\w+", regex=True).search("abc", 0, budget))


def test_a_long_search_hands_the_event_loop_back_every_slice() -> None:
    """Another task runs between the pieces: the worker answers the page while a search runs."""
    ticks = iter(range(10**6))
    budget = Budget(seconds=10**6, slice_seconds=3, clock=lambda: next(ticks))  # a tick a call, one a pause
    beats: list[int] = []

    async def both() -> None:
        async def heartbeat() -> None:
            while not done:
                beats.append(budget.calls)
                await asyncio.sleep(0)

        beat = asyncio.ensure_future(heartbeat())
        await search_texts([("/f", "a" * 50_000)], compile_query(r"\w+\(", regex=True), budget=budget)
        nonlocal done
        done = True
        await beat

    done = False
    asyncio.run(both())
    assert budget.pauses >= budget.calls // 4 - 1 and len(beats) >= budget.pauses


@aio
async def test_the_workspace_refuses_exponential_regex_over_a_line_of_a() -> None:
    ws: Workspace = await open_workspace()
    await ws.write("/a.txt", "a" * 40 + "\n")
    with pytest.raises(BadPattern, match="exponential"):
        await ws.search("(a+)+b", regex=True)
    assert [h.line for h in (await ws.search("a+", regex=True)).hits] == [1]


@settings(PROFILE)
@given(st.text("ab()[]{}|*+?.^$\\-,:=!<>P1dswb", max_size=24))
def test_the_check_answers_every_pattern_re_compiles_with_a_verdict_or_bad_pattern(source: str) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # `[[` and `--` in a class: a FutureWarning, still compiled
            re.compile(source)
    except (re.error, OverflowError, RecursionError):
        return
    try:
        verdict = check(source, re.MULTILINE)
    except BadPattern:
        return
    assert 1 <= verdict.degree <= 4 and verdict.factor >= 1


def test_many_tiny_files_still_read_the_clock_and_stop() -> None:
    """Small linear calls skip the clock, but each counts as CALL_STEPS: 50 calls at most between two
    readings, so a search over a million empty files stops when its time is up."""
    ticks = iter(range(10**6))
    budget = Budget(seconds=5, clock=lambda: next(ticks))
    files = ((f"/f{i}", "") for i in range(10**6))
    result = _search(files, compile_query("x"), budget=budget)
    assert result.stopped and result.files_searched <= 7 * CLOCK_STEPS // CALL_STEPS
