"""A store's member is read one record a line, exactly: parsed in one call when it can be, line by line
otherwise, with the same answer and the same refusals naming the line."""

from __future__ import annotations

import re

import pytest

from agentlite.handoff.handoff_format import HandoffRefused, parse_lines, record_lines

NAME = "stores/memory.jsonl"
ROWS = [("a", '{"id":"a"}'), ("b\u2028", 'x\u0085"y"\\'), ("c", "")]


def test_lines_come_back_as_written() -> None:
    assert parse_lines(NAME, record_lines(ROWS)) == ROWS
    assert parse_lines(NAME, b"") == []


def test_a_line_with_spaces_is_read_too() -> None:
    assert parse_lines(NAME, b'{"key": "a", "value": "b"}\n {"key":"c","value":"d"} \n') == [
        ("a", "b"),
        ("c", "d"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # two records on one line and one record over two: as many items as lines, once joined
        (
            '{"key":"a","value":"b"},{"key":"c","value":"d"}\n{"key":"e",\n"value":"f"}\n',
            "line 1 is not JSON",
        ),
        ('{"key":"a","value":"}\n{"key":"c","value":"d"}\n', "line 1 is not JSON"),
        ('{"key":"a","value":"b"}\n\n{"key":"c","value":"d"}\n', "line 2 is not JSON"),
        ('{"key":"a","value":"b"}\n{"key":"c","value":"d"}\n{"key":"e","value":1}\n', "line 3: its key"),
        ('{"key":"a","value":"b"}\n{"key":"c"}\n', "line 2 is not a {key, value} record"),
        ('{"key":"a","value":"b"}\n{"key":"a","value":"c"}\n', "two records under one key"),
    ],
)
def test_a_line_of_another_shape_is_refused_naming_it(text: str, message: str) -> None:
    with pytest.raises(HandoffRefused, match=re.escape(f"{NAME} ") + ".*" + re.escape(message)):
        parse_lines(NAME, text.encode())
