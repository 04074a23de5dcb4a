"""Live previews of streamed tool arguments, read from partial JSON.

The arguments of a call arrive as JSON text in pieces; `pydantic_core.from_json(..., allow_partial=...)`
reads the fields so far. A preview carries the whole text so far, so one per piece would be quadratic for
a large file: a new one is due only when the text has grown by an eighth (at least 64 characters, at most
64 KB; `preview_due`), which keeps the copying linear in practice. Where previews fall therefore depends
on the chunking; what does not is the last preview of each field, which always equals the field's final
value (`final()` sends it). Tests compare that final state.

The `path` of a call with streamed fields is previewed too, once and only whole (a later member has begun,
or the call is complete), so the page can name and open the file while its content is still streaming.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentlite.events import ToolArgPreview

LABEL = "path"  # the file a streamed call writes: previewed once, whole


def preview_due(shown: int, length: int) -> bool:
    """Whether text of `length` characters deserves a new preview after one of `shown` characters."""
    return length - shown >= min(65536, max(64, shown // 8)) or (shown == 0 < length)


def partial_object(text: str) -> dict[str, Any]:
    """The members so far of a JSON object cut off anywhere (incomplete trailing strings included)."""
    from pydantic_core import from_json  # imported on first use: the worker loads pydantic after start

    try:
        value = from_json(text, allow_partial="trailing-strings")
    except (ValueError, TypeError, RecursionError):  # TypeError: text holding a lone UTF-16 half
        return {}
    return value if isinstance(value, dict) else {}


class ArgumentPreview:
    """Previews of the streamed fields of one call."""

    def __init__(self, call_id: str, fields: tuple[str, ...]) -> None:
        self.call_id = call_id
        self.fields = fields
        self._shown: dict[str, str] = {}
        self._parsed_at = 0

    def due(self, length: int) -> bool:
        """Whether text of `length` characters is worth parsing again (callers skip joining it otherwise)."""
        return bool(self.fields) and preview_due(self._parsed_at, length)

    def update(
        self, text: str, extract: Callable[[dict[str, Any]], Any] | None = None
    ) -> list[ToolArgPreview]:
        """Previews for the fields that grew, when a parse is due; `extract` finds the arguments object."""
        if not self.due(len(text)):
            return []
        self._parsed_at = len(text)
        values: Any = partial_object(text)
        if extract is not None:
            values = extract(values)
        return self.show(values) if isinstance(values, dict) else []

    def show(self, values: dict[str, Any], whole: bool = False) -> list[ToolArgPreview]:
        events = self._label(values, whole)
        for name in self.fields:
            value = values.get(name)
            if isinstance(value, str) and value != self._shown.get(name):
                self._shown[name] = value
                events.append(ToolArgPreview(self.call_id, name, value))
        return events

    def _label(self, values: dict[str, Any], whole: bool) -> list[ToolArgPreview]:
        """The path, once: when the call is complete or a member after it has begun (so it is whole)."""
        label = values.get(LABEL)
        if not isinstance(label, str) or LABEL in self._shown:
            return []
        keys = list(values)
        if not whole and keys.index(LABEL) == len(keys) - 1:
            return []
        self._shown[LABEL] = label
        return [ToolArgPreview(self.call_id, LABEL, label)]

    def final(self, arguments: dict[str, Any]) -> list[ToolArgPreview]:
        """The complete value of every streamed field that the last preview did not show yet."""
        return self.show(arguments, whole=True)
