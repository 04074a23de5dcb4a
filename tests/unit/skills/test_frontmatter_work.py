"""The frontmatter parser is linear in its input, counted, not timed: its work is the Python lines it
runs plus, for each regex call, the input's length to the power the search's regex check gives that
regex (one less when the regex is matched from one place only; a linear regex that finds a match is
charged the text up to it). Ten times the hostile input may cost at
most about ten times the work. A 16,000-space value once cost 16,000^2 steps (`\\s+#` tried at each
space)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.skills import skill_frontmatter
from agentlite.skills.skill_frontmatter import FrontmatterError, parse_fields, split
from agentlite.workspace.regex_guard import check

FAMILIES: dict[str, Callable[[int], str]] = {
    "a value of spaces": lambda n: f"name: x\ndescription: a{' ' * n}b\n",
    "spaces then a hash": lambda n: f"description: a{' ' * n}#b\n",
    "hashes without spaces": lambda n: f"description: {'a#' * n}\n",
    "doubled single quotes": lambda n: "description: '" + "'' " * n + "'\n",
    "an unclosed single quote": lambda n: "description: '" + "'' " * n + "\n",
    "double-quoted escapes": lambda n: 'description: "' + "\\t " * n + '"\n',
    "continuation lines": lambda n: "description: a\n" + "  more words\n" * n,
    "list items": lambda n: "tags:\n" + "  - x\n" * n,
    "mapping lines": lambda n: "metadata:\n" + "".join(f"  k{i}: v\n" for i in range(n)),
    "keys": lambda n: "".join(f"k{i}: v\n" for i in range(n)),
    "a block": lambda n: "description: >\n" + "  line\n\n" * n,
    "a flow list": lambda n: "tags: [" + "a, " * n + "b]\n",
    "colons": lambda n: "description: " + "a:" * n + "\n",
    "blank lines": lambda n: "description: a\n" + "   \n" * n + "k: v\n",
}


class Work:
    """Counts the parser's lines and charges each regex call by the check's degree of its regex."""

    def __init__(self) -> None:
        self.steps = 0

    def line(self, frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "line":
            self.steps += 1
        return self.line

    def regex(self, pattern: re.Pattern[str], anchored: bool) -> Any:
        degree = check(pattern.pattern, pattern.flags).degree
        power = max(1, degree - 1) if anchored else degree
        work = self

        class Counted:
            def __getattr__(self, name: str) -> Any:
                method = getattr(pattern, name)

                def call(*args: Any, **kwargs: Any) -> Any:
                    if name in ("sub", "subn"):  # sub(repl, string)
                        length = len(args[1])
                    else:  # search, match, fullmatch(string, pos=0, endpos=len(string))
                        string = args[0]
                        pos = args[1] if len(args) > 1 else 0
                        endpos = args[2] if len(args) > 2 else len(string)
                        length = min(endpos, len(string)) - pos
                    found = method(*args, **kwargs)
                    if degree == 1 and isinstance(found, re.Match):  # constant work a place: up to the match
                        length = found.end() - found.pos
                    work.steps += (max(length, 0) + 1) ** power
                    return found

                return call

        return Counted()


class CountedRe:
    """`re` for the parser's module: every call is charged as `Work.regex` charges it."""

    def __init__(self, work: Work) -> None:
        self.work = work

    def __getattr__(self, name: str) -> Any:
        def call(pattern: str, text: str, *args: Any, **kwargs: Any) -> Any:
            compiled = re.compile(pattern)
            counted = self.work.regex(compiled, anchored=name in ("match", "fullmatch"))
            return getattr(counted, name)(text, *args, **kwargs)

        return call if name in ("match", "fullmatch", "search", "sub") else getattr(re, name)


def work_of(front: str, monkeypatch: pytest.MonkeyPatch) -> int:
    work = Work()
    with monkeypatch.context() as patched:
        patched.setattr(skill_frontmatter, "re", CountedRe(work))
        for name, value in vars(skill_frontmatter).copy().items():
            if isinstance(value, re.Pattern):
                anchored = value not in getattr(skill_frontmatter, "SEARCHED", ())
                patched.setattr(skill_frontmatter, name, work.regex(value, anchored))
        sys.settrace(work.line)
        try:
            parse_fields(front)
        except FrontmatterError:
            pass
        finally:
            sys.settrace(None)
    return work.steps


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_ten_times_the_input_is_about_ten_times_the_work(
    family: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    small, large = (work_of(FAMILIES[family](n), monkeypatch) for n in (400, 4000))
    assert large <= 12 * small + 1000, (family, small, large)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", " ", "#", "'", '"', ":", "-", "\\", "[", "]", ",", "\n", "  "]), max_size=30
    )
)
def test_any_repeated_text_costs_linear_work(unit: list[str]) -> None:
    text = "".join(unit) or " "
    with pytest.MonkeyPatch.context() as monkeypatch:
        small = work_of("description: " + text * 40, monkeypatch)
        large = work_of("description: " + text * 400, monkeypatch)
    assert large <= 12 * small + 1000, (text, small, large)


def test_every_regex_of_the_parser_is_one_the_search_check_counts_as_linear() -> None:
    for pattern in skill_frontmatter.ANCHORED:
        assert check(pattern.pattern, pattern.flags).degree <= 2, pattern.pattern  # one place: n ** (d - 1)
    for pattern in skill_frontmatter.SEARCHED:
        assert check(pattern.pattern, pattern.flags).degree == 1, pattern.pattern
    source = Path(skill_frontmatter.__file__).read_text(encoding="utf-8")
    assert not re.search(r"\bre\.(?:match|fullmatch|search|sub|findall|finditer|split)\(", source)


def test_a_16000_space_value_reads_and_the_closing_line_is_found_once() -> None:
    text = f"---\nname: x\ndescription: a{' ' * 16_000}b\n---\nBody.\n"
    front, body = split(text)
    assert body == "Body.\n" and parse_fields(front)["description"] == "a" + " " * 16_000 + "b"
    assert split("---\nname: x\n---   \nrest")[1] == "rest"
    assert split("---\nname: x\n...")[0] == "name: x"
    with pytest.raises(FrontmatterError, match="no closing"):
        split("---\nname: x\n" + " " * 20_000 + "\n---\n")
