"""What the page's editor shows: the open file and the selection in it, as the page reports them.

The page sends them with each message and whenever they change (another file opened, a new selection),
so a turn's prompt names the open document and `edit_current_editor_document` writes the file the user
has open, even when it changes while the turn runs. The page's values are checked here: anything
malformed counts as "nothing open" or "nothing selected", never as an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_SELECTION_CHARS = 8_000  # a larger selection goes to the model cut, with a note
MAX_PATH_CHARS = 1_024


@dataclass(frozen=True)
class Selection:
    """Selected text and the lines it spans (1-based, inclusive)."""

    start_line: int
    end_line: int
    text: str

    @classmethod
    def from_message(cls, value: Any) -> Selection | None:
        if not isinstance(value, dict) or not isinstance(value.get("text"), str) or not value["text"]:
            return None
        start, end = _line(value.get("start_line")), _line(value.get("end_line"))
        if start is None or end is None:
            return None
        return cls(min(start, end), max(start, end), value["text"])

    def describe(self) -> str:
        """The selection as the prompt shows it: where it is, then the text (cut when very long)."""
        where = (
            f"line {self.start_line}"
            if self.start_line == self.end_line
            else f"lines {self.start_line}-{self.end_line}"
        )
        text = self.text
        if len(text) > MAX_SELECTION_CHARS:
            text = (
                text[:MAX_SELECTION_CHARS] + f"\n[... {len(self.text) - MAX_SELECTION_CHARS} more characters]"
            )
        return f"({where})\n{text}"


@dataclass(frozen=True)
class EditorState:
    open_file: str | None = None
    selection: Selection | None = None

    @classmethod
    def from_message(cls, open_file: Any = None, selection: Any = None) -> EditorState:
        path = open_file if isinstance(open_file, str) and 0 < len(open_file) <= MAX_PATH_CHARS else None
        return cls(path, Selection.from_message(selection) if path else None)


def _line(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = int(value)
    return number if number >= 1 else None
