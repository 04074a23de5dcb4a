"""Tool-call markup of chat templates, turned into the json dialect's plain form before it is parsed.

Small open models write the call format they were trained on instead of the one they are asked for
(docs/protocol.md, "Messy tool calls"): `<tool_call>{...}</tool_call>` (Hermes, Qwen),
`<function=NAME>{...}</function>` and `<|python_tag|>{...}<|eom_id|>` (Llama 3.x). Each has one reading,
so the tags are rewritten: wrapper tags become line breaks (the JSON inside is then a call on its own
line), and `<function=NAME>ARGS</function>` becomes `{"tool": "NAME", "arguments": ARGS}`, streamed as
it arrives so the live preview still works. No markup reaches the user as text.

`MarkupFilter` is incremental and split-invariant: text that may still become a tag is held back until
it is decided, and every decision depends on the text only, never on where a chunk ended.
"""

from __future__ import annotations

import re

from agentlite.events import Event
from agentlite.stream.channel import DialectParser

_WRAPPERS = ("<tool_call>", "</tool_call>", "<|python_tag|>", "<|eom_id|>", "<|eot_id|>")
_FUNCTION = re.compile(r"<function=([A-Za-z0-9_.\-]{1,64})>")
_FUNCTION_PREFIX = re.compile(r"<(?:f(?:u(?:n(?:c(?:t(?:i(?:o(?:n(?:=[A-Za-z0-9_.\-]{0,64})?)?)?)?)?)?)?)?)?")
_FUNCTION_END = "</function>"


class MarkupFilter:
    """Text in, the same text with call markup rewritten out (see the module docstring)."""

    def __init__(self) -> None:
        self._held = ""
        self._at_line_start = True
        self._in_function = False

    def feed(self, text: str) -> str:
        buffer, self._held = self._held + text, ""
        out: list[str] = []
        position = 0
        while (start := buffer.find("<", position)) >= 0:
            self._emit(out, buffer[position:start])
            rest = buffer[start:]
            taken = self._tag(rest, out)
            if taken is None:  # may still become a tag: wait for more text
                self._held = rest
                return "".join(out)
            if taken == 0:
                self._emit(out, "<")
                taken = 1
            position = start + taken
        self._emit(out, buffer[position:])
        return "".join(out)

    def close(self) -> str:
        out: list[str] = []
        self._emit(out, self._held)
        self._held = ""
        if self._in_function:  # the closing tag never came: the object is left open for the repair
            self._in_function = False
        return "".join(out)

    def _tag(self, rest: str, out: list[str]) -> int | None:
        """Characters of `rest` consumed as a tag; 0 when it is no tag, None when undecided."""
        for tag in _WRAPPERS:
            if rest.startswith(tag):
                self._line_break(out)
                return len(tag)
            if tag.startswith(rest):
                return None
        if self._in_function:
            if rest.startswith(_FUNCTION_END):
                self._in_function = False
                self._emit(out, "}")
                self._line_break(out)
                return len(_FUNCTION_END)
            return None if _FUNCTION_END.startswith(rest) else 0
        match = _FUNCTION.match(rest)
        if match:
            self._line_break(out)
            self._emit(out, f'{{"tool": "{match.group(1)}", "arguments": ')
            self._in_function = True
            return match.end()
        return None if _FUNCTION_PREFIX.fullmatch(rest) else 0

    def _line_break(self, out: list[str]) -> None:
        if not self._at_line_start:
            self._emit(out, "\n")

    def _emit(self, out: list[str], text: str) -> None:
        if text:
            out.append(text)
            self._at_line_start = text.endswith("\n")


class MarkupParser:
    """A dialect parser that reads its text through a `MarkupFilter` first."""

    def __init__(self, parser: DialectParser) -> None:
        self.parser = parser
        self._filter = MarkupFilter()

    def feed(self, text: str) -> list[Event]:
        filtered = self._filter.feed(text)
        return self.parser.feed(filtered) if filtered else []

    def close(self, truncated: bool = False) -> list[Event]:
        rest = self._filter.close()
        return (self.parser.feed(rest) if rest else []) + self.parser.close(truncated)

    def abort(self, reason: str) -> list[Event]:
        return self.parser.abort(reason)


def without_markup(text: str) -> str:
    """`text` with call markup rewritten (for checks over a whole reply)."""
    markup = MarkupFilter()
    return markup.feed(text) + markup.close()
