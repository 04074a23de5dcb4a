"""Line assembly of the ndjson protocol: text in, records, prose lines and broken records out.

A state machine over the text (origins: streaming): append, and at each newline try to parse the buffer as
JSON; on success emit and clear. A record may span lines (the design note's own example does) and several
may share a line. A line that can never become a record must not swallow the records after it: prose lines
come out as prose, fence lines are dropped, and a line that opens a new record (`{"type"`) ends an
unfinished one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agentlite.stream import jsonvalue

_NEW_RECORD = re.compile(r'\s*\{\s*"type"\s*:')
# A chunk record spelled as producers write it (ndjson_writer.py), up to the opening quote of its data.
_CHUNK_HEAD = re.compile(
    r'\{"type":"bs64_chunk","bs64_id":"([\w.:-]{1,64})","seq":(0|[1-9][0-9]{0,8}),"(data_b64|data)":"'
)


@dataclass(frozen=True)
class Record:
    value: dict[str, Any]


@dataclass(frozen=True)
class Prose:
    text: str


@dataclass(frozen=True)
class Broken:
    """Text that began as a record and cannot become one."""

    text: str


Item = Record | Prose | Broken


class RecordSplitter:
    def __init__(self) -> None:
        self._line: list[str] = []  # the current physical line so far
        self._pending = ""  # an unfinished record spanning lines

    def feed(self, text: str) -> list[Item]:
        items: list[Item] = []
        start = 0
        while (newline := text.find("\n", start)) >= 0:
            self._line.append(text[start : newline + 1])
            line = "".join(self._line)
            self._line = []
            self._take(line, items)
            start = newline + 1
        if start < len(text):
            self._line.append(text[start:])
        return items

    def close(self) -> list[Item]:
        items: list[Item] = []
        if self._line:
            line = "".join(self._line)
            self._line = []
            self._take(line, items)
        if self._pending.strip():
            items.append(Broken(self._pending))
        self._pending = ""
        return items

    def _take(self, line: str, items: list[Item]) -> None:
        if self._pending:
            if not _NEW_RECORD.match(line):
                self._parse(self._pending + line, items)
                return
            items.append(Broken(self._pending))
            self._pending = ""
        stripped = line.strip()
        if not stripped or stripped.startswith("```"):
            return
        if stripped.startswith("{"):
            self._parse(line, items)
        else:
            items.append(Prose(line))

    def _parse(self, text: str, items: list[Item]) -> None:
        """Every record in `text`; an unfinished tail waits for the next line."""
        self._pending = ""
        position = _skip_blank(text, 0)
        while position < len(text):
            if text[position] != "{":
                rest = text[position:]
                if not rest.lstrip().startswith("```"):
                    items.append(Prose(rest))
                return
            value, end, incomplete = _decode(text, position)
            if jsonvalue.missing(value):
                if incomplete:
                    self._pending = text[position:]
                else:
                    items.append(Broken(text[position:]))
                return
            items.append(Record(value) if isinstance(value, dict) else Broken(text[position:end]))
            position = _skip_blank(text, end)


def _skip_blank(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _decode(text: str, position: int) -> tuple[Any, int, bool]:
    """(value, end, incomplete) of the JSON value at `position`, as `jsonvalue.raw_decode` reads it."""
    chunk = _chunk_record(text, position)
    if chunk is not None:
        return chunk[0], chunk[1], False
    return jsonvalue.raw_decode(text, position, lenient=True)


def _chunk_record(text: str, position: int) -> tuple[dict[str, Any], int] | None:
    """A plainly spelled chunk record read without the JSON scanner, which would cost more than all the
    rest of its handling; the same dict the decoder gives. None for any other spelling (escapes included)."""
    head = _CHUNK_HEAD.match(text, position)
    if head is None:
        return None
    start = head.end()
    close = text.find('"', start)
    if close < 0 or not text.startswith('"}', close) or text.find("\\", start, close) >= 0:
        return None
    record = {"type": "bs64_chunk", "bs64_id": head.group(1), "seq": int(head.group(2))}
    record[head.group(3)] = text[start:close]
    return record, close + 2
