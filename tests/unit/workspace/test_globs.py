"""Globs in bounded time: brace expansion is capped in count and depth, and every regex a glob becomes
passes the search's own regex check (no repeat that can backtrack out of control)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.workspace import InvalidArgument
from agentlite.workspace.globs import MAX_PATTERNS, GlobSet, expand_braces, glob_set, name_regex, path_regex
from agentlite.workspace.regex_guard import check
from tests.unit.workspace.helpers import PROFILE

HOSTILE = [
    "**/" * 30 + "x",
    "/".join(["**"] * 30) + "/a*a*a*a*a*a*a*a*b",
    "*a" * 40 + "*b",
    "src/" + "**/*a/" * 20 + "x.ts",
]
REFUSED = ["{a,b}" * 30, "{" * 10 + "a" + "}" * 10, "{" + ",".join("x" * 1000) + "}", "a**b/" * 30]


@pytest.mark.parametrize("pattern", HOSTILE)
def test_hostile_globs_compile_to_regexes_the_check_admits(pattern: str) -> None:
    globs = GlobSet([pattern])
    for regex in [name_regex(pattern)] if "/" not in pattern else [path_regex(pattern)]:
        verdict = check(regex, 0)
        assert verdict.degree <= 3 and verdict.nodes < 2000
    long_path = "/" + "/".join(["a" * 200] * 4)
    assert globs.matches(long_path, long_path[1:]) is False


@pytest.mark.parametrize("pattern", REFUSED)
def test_brace_bombs_are_refused(pattern: str) -> None:
    with pytest.raises(InvalidArgument):
        glob_set(pattern)


def test_expansion_work_is_bounded_by_its_cap() -> None:
    assert len(expand_braces("{a,b}" * 6)) == MAX_PATTERNS
    with pytest.raises(InvalidArgument, match="more than"):
        expand_braces("{a,b}" * 7)


def _reference(pattern: str) -> re.Pattern[str]:
    """What a brace-free glob with `/` meant before: `**/` any folders, `**` anything, `*` in a name."""
    out = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(pattern[index], re.escape(pattern[index])))
            index += 1
    return re.compile("".join(out) + r"(?:/.*)?\Z")


_NAMES = st.sampled_from(["a", "b", "ab", "*", "a*", "*b", "?", "**", "a?b", "*a*"])
_PATHS = st.lists(st.sampled_from(["a", "b", "ab", "ba", "aab", "x"]), min_size=1, max_size=6)


@settings(PROFILE)
@given(st.lists(_NAMES, min_size=2, max_size=5), _PATHS)
def test_path_globs_match_what_they_matched_before(names: list[str], parts: list[str]) -> None:
    pattern = "/".join(names)
    path = "/".join(parts)
    assert glob_set(pattern).matches("/" + path, path) is bool(_reference(pattern).match(path))
