"""One problem a checker found in a file, as the model and the page read it: `path:line:col code message`.

The page's checkers answer rows `[line, col, code, message]` per path; `parse_problems` keeps only the
well-formed ones (a page answer is never trusted to be the right shape) and cuts messages to one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MESSAGE_CHARS = 300  # one problem's message, on one line
ROWS_PER_FILE = 500  # more in one file is noise: the first ones by position are kept


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    col: int
    code: str
    message: str

    @property
    def key(self) -> tuple[str, str, str]:
        """What a problem is, wherever it stands: a line moved by an edit above it is the same problem."""
        return (self.path, self.code, self.message)

    def line_text(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.code} {self.message}".rstrip()

    def to_row(self) -> list[Any]:
        return [self.line, self.col, self.code, self.message]


Problems = dict[str, list[Problem]]


def parse_problems(raw: Any) -> Problems:
    """path -> sorted problems from a page answer; malformed paths and rows are dropped."""
    if not isinstance(raw, dict):
        return {}
    found: Problems = {}
    for path, rows in raw.items():
        if not isinstance(path, str) or not path.startswith("/") or not isinstance(rows, list):
            continue
        problems = [problem for row in rows[:ROWS_PER_FILE] if (problem := _row(path, row)) is not None]
        found[path] = sorted(problems)
    return found


def _row(path: str, row: Any) -> Problem | None:
    if not isinstance(row, list) or len(row) < 4:
        return None
    line, col, code, message = row[:4]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (line, col)):
        return None
    if not isinstance(code, str) or not isinstance(message, str):
        return None
    first = " ".join(message.split("\n", 1)[0].split())
    return Problem(path, line, col, code.strip()[:40], first[:MESSAGE_CHARS])
