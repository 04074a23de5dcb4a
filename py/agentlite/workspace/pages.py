"""Reading a file a page at a time: numbered lines, the total, and where the next page starts.

Lines are what `\\n` separates (a final line end does not start another line); `\\r` is kept out of the
shown text. A very long line is shown cut, with the number of characters left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from agentlite.workspace.workspace_errors import InvalidArgument, size_text

DEFAULT_MAX_LINES = 200
MAX_LINE_CHARS = 2000


@dataclass(frozen=True)
class Page:
    path: str
    start_line: int
    end_line: int  # last line shown (start_line - 1 when none)
    total_lines: int
    lines: list[str]
    next_start_line: int | None  # None when the end was reached
    size: int
    binary: bool = False
    mime: str | None = None

    @property
    def eof(self) -> bool:
        return self.next_start_line is None

    def numbered(self) -> str:
        """`cat -n` style: the line number right-aligned, a tab, the line."""
        width = max(6, len(str(self.end_line)))
        return "\n".join(f"{self.start_line + i:>{width}}\t{line}" for i, line in enumerate(self.lines))

    def format(self) -> str:
        """The text a model reads: a header, the numbered lines, and how to go on."""
        if self.binary:
            kind = f"binary file, {size_text(self.size)}, type {self.mime}"
            return f"{self.path}: {kind}; its bytes are not shown."
        if self.total_lines == 0:
            return f"{self.path}: empty file."
        head = f"{self.path}: lines {self.start_line}-{self.end_line} of {self.total_lines}"
        tail = (
            "(end of file)"
            if self.eof
            else f"(more: read again with start_line={self.next_start_line} to continue)"
        )
        return f"{head}\n{self.numbered()}\n{tail}"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["eof"] = self.eof
        return data


def count_lines(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def page_of(
    path: str, text: str, start_line: int = 1, max_lines: int = DEFAULT_MAX_LINES, size: int | None = None
) -> Page:
    if not isinstance(start_line, int) or start_line < 1:
        raise InvalidArgument(f"start_line must be 1 or more, not {start_line!r}")
    if not isinstance(max_lines, int) or max_lines < 1:
        raise InvalidArgument(f"max_lines must be 1 or more, not {max_lines!r}")
    total = count_lines(text)
    if start_line > max(total, 1):
        raise InvalidArgument(
            f"start_line {start_line} is past the end of {path}, which has {total} lines", path=path
        )
    begin = _offset_of_line(text, start_line)
    lines: list[str] = []
    position = begin
    while len(lines) < max_lines and position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        lines.append(_shown(text[position:end]))
        position = end + 1
    end_line = start_line + len(lines) - 1
    following = end_line + 1 if end_line < total else None
    size = len(text.encode("utf-8")) if size is None else size
    return Page(path, start_line, end_line, total, lines, following, size)


def _offset_of_line(text: str, line: int) -> int:
    position = 0
    for _ in range(line - 1):
        found = text.find("\n", position)
        if found < 0:
            return len(text)
        position = found + 1
    return position


def _shown(line: str) -> str:
    line = line.removesuffix("\r")
    if len(line) > MAX_LINE_CHARS:
        return f"{line[:MAX_LINE_CHARS]}… [{len(line) - MAX_LINE_CHARS} more characters]"
    return line
