"""The SKILL.md frontmatter parser: the subset skills use, read as YAML reads it, and an error (never a
guess, never a crash) for anything else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.skills.skill_frontmatter import FrontmatterError, parse, parse_fields, split

yaml = pytest.importorskip("yaml")

KEYS = st.from_regex(r"k[a-z0-9_-]{0,12}", fullmatch=True)  # never a YAML 1.1 boolean such as `on`
# YAML's printable set leaves out U+FFFE and U+FFFF as well as the control characters.
SAFE = st.text(
    st.characters(
        codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"), exclude_characters="\ufffe\uffff"
    ),
    max_size=60,
)
PLAIN = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 ,.()/_-]{0,40}[A-Za-z0-9.)]", fullmatch=True)


def double_quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def single_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_the_fields_of_a_typical_skill() -> None:
    document = parse(
        "---\nname: pdf-forms\ndescription: >\n  Fills PDF forms.\n  Use it for forms.\nlicense: MIT\n"
        'metadata:\n  author: someone\n  version: "1.0"\nallowed-tools: Bash(git:*) Read\n---\n# Body\n'
    )
    assert document.fields == {
        "name": "pdf-forms",
        "description": "Fills PDF forms. Use it for forms.\n",
        "license": "MIT",
        "metadata": {"author": "someone", "version": "1.0"},
        "allowed-tools": "Bash(git:*) Read",
    }
    assert document.body == "# Body\n"


SCALARS = st.one_of(SAFE.map(lambda t: ("d", t)), SAFE.map(lambda t: ("s", t)), PLAIN.map(lambda t: ("p", t)))


@given(st.dictionaries(KEYS, SCALARS, max_size=6))
@settings(max_examples=300, deadline=None)
def test_scalars_read_as_yaml_reads_them(values: dict[str, tuple[str, str]]) -> None:
    quote = {"d": double_quoted, "s": single_quoted, "p": lambda t: t}
    front = "".join(f"{key}: {quote[kind](text)}\n" for key, (kind, text) in values.items())
    expected = {key: text for key, (_kind, text) in values.items()}
    assert parse_fields(front) == expected
    loaded = yaml.safe_load(front) or {}
    quoted = {k for k, (kind, _text) in values.items() if kind != "p"}  # YAML makes some words numbers
    assert {k: loaded[k] for k in quoted} == {k: expected[k] for k in quoted}


@given(st.dictionaries(KEYS, PLAIN, max_size=5), st.lists(PLAIN, max_size=5))
@settings(max_examples=200, deadline=None)
def test_a_metadata_map_and_a_list_read_as_yaml_reads_them(mapping: dict[str, str], items: list[str]) -> None:
    front = "metadata:\n" + "".join(f"  {k}: {double_quoted(v)}\n" for k, v in mapping.items())
    front += "tools:\n" + "".join(f"  - {double_quoted(v)}\n" for v in items)
    parsed = parse_fields(front)
    assert parsed["metadata"] == (mapping or "")
    assert parsed["tools"] == (items or "")
    loaded = yaml.safe_load(front)
    assert (loaded["metadata"] or "") == parsed["metadata"] and (loaded["tools"] or "") == parsed["tools"]


@given(st.lists(PLAIN, min_size=1, max_size=6), st.sampled_from(["|", ">", "|-", ">-"]))
@settings(max_examples=200, deadline=None)
def test_block_scalars_read_as_yaml_reads_them(lines: list[str], indicator: str) -> None:
    front = f"description: {indicator}\n" + "".join(f"  {line}\n" for line in lines) + "name: x\n"
    assert parse_fields(front)["description"] == yaml.safe_load(front)["description"]


@given(st.text(max_size=400))
@settings(max_examples=500, deadline=None)
def test_any_text_is_read_or_refused_never_a_crash(text: str) -> None:
    try:
        fields = parse("---\n" + text + "\n---\nbody").fields
    except FrontmatterError as error:
        assert str(error)
    else:
        assert all(isinstance(v, str | dict | list) for v in fields.values())


@pytest.mark.parametrize(
    ("front", "why"),
    [
        ("name: a\nname: b", "given twice"),
        ("description: a: b", "quotes"),
        ("name: *alias", "quotes"),
        ("name: !!python/object x", "quotes"),
        ("name: 'open", "not closed"),
        ('name: "bad \\q"', "unknown escape"),
        ("metadata:\n  a:\n    b: c", "one level"),
        ("  name: x", "indentation"),
        ("just words", "key: value"),
        ("tools: [a, b", "not closed"),
    ],
)
def test_what_is_not_the_subset_is_refused_with_the_line(front: str, why: str) -> None:
    with pytest.raises(FrontmatterError, match=why):
        parse_fields(front)


def test_the_frontmatter_must_open_and_close_within_its_limit() -> None:
    with pytest.raises(FrontmatterError, match="must start"):
        split("# no frontmatter\n")
    with pytest.raises(FrontmatterError, match="no closing"):
        split("---\nname: x\n" + "# filler\n" * 5000)
    assert split("\ufeff---\r\nname: x\r\n---\r\nbody") == ("name: x", "body")
    assert split("---\n---\n") == ("", "")
