"""The `json` dialect: tool calls as JSON objects in the text (docs/protocol.md, json, origins: engine and
client-tools).

A call is an object alone on its line, or in a ```json fence, or (tolerated) an object that opens with
`{"tool":` after prose on the same line. Text that may be the start of a call is withheld until it is
decided, so raw call JSON never reaches the user; text that turns out not to be a call is released
unchanged. Thinking never gets here (channel.py), so a call written inside thinking does not run.

Deciding points depend only on the text, never on the chunking: a candidate is dropped as soon as its
first key cannot start a call, `ToolCallStarted` goes out once the tool name is complete, and the call
is ready the moment its object closes. A newline inside an open object after a complete value (`}`, `"`,
a number) ends the object unless the next line continues it with `}`, `]` or `,`; then the one repair
(json_repair.py) closes it. A broken call becomes `ToolCallInvalid` with a reason for the model. A call
right after another on the same line (`}{`) is read too; a first key in single quotes may start a call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.events import Event, ProtocolNote, TextDelta, ToolCallInvalid, ToolCallReady, ToolCallStarted
from agentlite.stream import jsonvalue
from agentlite.stream.call_shape import ARGUMENT_KEYS, FIRST_KEYS, call_shape
from agentlite.stream.ids import CallIds
from agentlite.stream.json_repair import repaired
from agentlite.stream.json_scan import JsonScanner
from agentlite.stream.preview import ArgumentPreview
from agentlite.stream.surrogates import mended_value
from agentlite.stream.tool_specs import ToolCatalog

_BLANKS = re.compile(r"[ \t]*")
_OPENER = re.compile(r'\{\s*"tool"\s*:')
_OPENER_PREFIX = re.compile(r'\{\s*(?:"(?:t(?:o(?:o(?:l(?:"\s*)?)?)?)?)?)?')
_FIRST_KEY = re.compile(r'\{\s*(?:(?:"((?:[^"\\]|\\.)*)"|\'([^\'"\\]*)\')\s*:|([^\s"\']))', re.DOTALL)
_NAME = re.compile(
    r'\{\s*(?:"(?:tool|tool_name)"\s*:\s*|(?:"type"\s*:\s*"function"\s*,\s*)?"function"\s*:\s*\{\s*"name"\s*:\s*)'
    r'"((?:[^"\\]|\\.)*)"'
)
_NAME_WINDOW = 512  # the name comes first; stop looking for it after this many characters
CUT_OFF = "the reply was cut off inside the call (at the output limit); send it again, shorter"
FORMAT_HINT = 'write each call as one JSON object on its own line: {"tool": "<name>", "arguments": {...}}'


@dataclass
class _Candidate:
    """An object that may be a call: the text withheld before it and its JSON so far."""

    prefix: str
    fenced: bool
    mid_line: bool
    pieces: list[str] = field(default_factory=list)
    size: int = 0
    scanner: JsonScanner = field(default_factory=JsonScanner)
    possible: bool | None = None  # whether the first key can start a call; None until it is known
    name_checked: bool = False  # no name in the first _NAME_WINDOW characters
    awaiting: bool = False  # a newline came after a complete value at depth > 0
    id: str | None = None
    name: str | None = None
    preview: ArgumentPreview | None = None

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.size += len(piece)

    @property
    def text(self) -> str:
        if len(self.pieces) > 1:
            self.pieces[:] = ["".join(self.pieces)]
        return self.pieces[0] if self.pieces else ""


class JsonDialectParser:
    """Content text in; text, tool-call and note events out. Modes are the handler methods `_on_<mode>`."""

    def __init__(self, catalog: ToolCatalog | None = None, ids: CallIds | None = None) -> None:
        self.catalog = catalog or ToolCatalog()
        self.ids = ids or CallIds()
        self._mode = "line"
        self._held = ""  # withheld text of the current line
        self._fence = ""  # an opening ```json line (and blank lines) waiting for its object
        self._code = False  # inside a code block that is not a call
        self._call: _Candidate | None = None
        self._fence_open = False  # the last call was fenced: its closing fence is due
        self._replay = ""  # text of a dropped candidate after its brace, to be read again as prose
        self._closers_noted = False  # extra closers after the last call were noted
        self._events: list[Event] = []

    def feed(self, text: str) -> list[Event]:
        self._run(text)
        events, self._events = self._events, []
        return events

    def close(self, truncated: bool = False) -> list[Event]:
        while self._call is not None:
            self._finish_open(truncated)
            replay, self._replay = self._replay, ""
            self._run(replay)
        if self._mode == "fence":
            self._text(self._fence)
        elif self._mode in ("line", "prose", "tick"):
            self._text(self._held)
        self._held, self._fence, self._mode = "", "", "line"
        events, self._events = self._events, []
        return events

    def abort(self, reason: str) -> list[Event]:
        call, self._call = self._call, None
        if call is not None and call.id is not None:
            return [ToolCallInvalid(call.id, reason, call.name)]
        return []

    def _run(self, text: str) -> None:
        """Hand the text to the mode handlers; text given back by a dropped candidate is read again first."""
        while text:
            text = getattr(self, "_on_" + self._mode)(text)
            if self._replay:
                text, self._replay = self._replay + text, ""

    # modes: each consumes a prefix of `text` and returns the rest

    def _on_line(self, text: str) -> str:
        blanks = _BLANKS.match(text)
        width = blanks.end() if blanks else 0
        self._held += text[:width]
        text = text[width:]
        if not text:
            return ""
        if text[0] == "\n":
            self._text(self._held + "\n")
            self._held = ""
            return text[1:]
        if text[0] == "`":
            self._mode = "tick"
        elif text[0] in "{[" and not self._code:
            self._open(self._held, fenced=False, mid_line=False)
            self._held = ""
        else:
            self._mode = "prose"
        return text

    def _on_prose(self, text: str) -> str:
        buffer, self._held = self._held + text, ""
        newline = buffer.find("\n")
        line = buffer if newline < 0 else buffer[: newline + 1]
        position = 0
        while not self._code and (brace := line.find("{", position)) >= 0:
            opener = _opens_call(line[brace:])
            if opener is None and newline < 0:
                self._text(line[:brace])
                self._held = line[brace:]
                return ""
            if opener:
                self._text(line[:brace])
                self._open("", fenced=False, mid_line=True)
                return buffer[brace:]
            position = brace + 1
        self._text(line)
        if newline >= 0:
            self._mode = "line"
        return buffer[len(line) :]

    def _on_tick(self, text: str) -> str:
        buffer, self._held = self._held + text, ""
        newline = buffer.find("\n")
        line = buffer if newline < 0 else buffer[:newline]
        stripped = line.strip()
        if not "```".startswith(stripped[:3]) or (len(stripped) < 3 and newline >= 0):
            self._mode = "prose"
            return buffer
        if newline < 0:
            self._held = buffer
            return ""
        info = stripped[3:].strip().lower()
        self._mode = "line"
        if self._code or info not in ("", "json", "jsonc", "json5"):
            self._code = not self._code if not info or not self._code else self._code
            self._text(line + "\n")
        else:
            self._fence = line + "\n"
            self._mode = "fence"
        return buffer[newline + 1 :]

    def _on_fence(self, text: str) -> str:
        stripped = text.lstrip()
        self._fence += text[: len(text) - len(stripped)]
        if not stripped:
            return ""
        if stripped[0] == "{":
            self._open(self._fence, fenced=True, mid_line=False)
        else:
            self._text(self._fence)
            self._code, self._mode = True, "line"
        self._fence = ""
        return stripped

    def _on_call(self, text: str) -> str:
        call = self._call
        assert call is not None
        if call.awaiting:
            return self._await_continuation(call, text)
        newline = text.find("\n")
        segment = text if newline < 0 else text[: newline + 1]
        end = call.scanner.feed(segment)
        if end is not None:
            call.add(segment[:end])
            self._finish_closed(call)
            return text[end:]
        if call.scanner.broken:  # the candidate ends at the mismatched closer
            call.add(segment[: call.scanner.broken_at])
            self._give_up(call, "the object is not valid JSON", False)
            return text[call.scanner.broken_at :]
        call.add(segment)
        rest = text[len(segment) :]
        if not self._still_possible(call):
            self._give_up(call, "not a call", newline >= 0)
            return rest
        self._progress(call)
        scanner = call.scanner
        if newline >= 0 and not scanner.in_string and scanner.last not in "{[,:":
            call.awaiting = True
        return rest

    def _on_after(self, text: str) -> str:
        """Just after a call's object, on the same line."""
        stripped = text.lstrip(" \t")
        if not stripped:
            return ""
        if stripped[0] in "}]":
            if not self._closers_noted:
                self._closers_noted = True
                self._events.append(ProtocolNote("dropped extra closing brackets after a tool call"))
            return stripped.lstrip("}]")
        if stripped[0] == "\n":
            self._mode = "close_fence" if self._fence_open else "line"
            return stripped[1:]
        if stripped[0] == "`" and self._fence_open:
            self._mode = "close_fence"
            return stripped
        if stripped[0] == "{":  # two calls glued on one line: `}{`
            self._open("", fenced=False, mid_line=False)
            return stripped
        self._mode, self._fence_open = "prose", False
        return stripped

    def _on_close_fence(self, text: str) -> str:
        buffer, self._held = self._held + text, ""
        stripped = buffer.lstrip()
        if not stripped or (len(stripped) < 3 and "```".startswith(stripped)):
            self._held = buffer
            return ""
        self._fence_open = False
        if stripped.startswith("```"):
            newline = stripped.find("\n")
            self._mode = "line" if newline >= 0 else "drop_line"
            return stripped[newline + 1 :] if newline >= 0 else ""
        if stripped[0] == "{":
            self._mode, self._fence = "fence", ""
            return stripped
        self._code, self._mode = True, "line"
        return buffer

    def _on_drop_line(self, text: str) -> str:
        newline = text.find("\n")
        if newline < 0:
            return ""
        self._mode = "line"
        return text[newline + 1 :]

    # candidates

    def _open(self, prefix: str, fenced: bool, mid_line: bool) -> None:
        self._call = _Candidate(prefix, fenced, mid_line, possible=True if mid_line else None)
        self._mode = "call"

    def _still_possible(self, call: _Candidate) -> bool:
        """False once the first key shows the object cannot be a call (decided once, from the text)."""
        if call.possible is not None:
            return call.possible
        text = call.text
        if text.startswith("["):  # an array of calls
            text = text[1:].lstrip()
            if text and text[0] != "{":
                call.possible = False
                return False
        match = _FIRST_KEY.match(text)
        if match is None:
            return True
        key = match.group(1) if match.group(1) is not None else match.group(2)  # '...': single quotes
        call.possible = key is not None and key in FIRST_KEYS
        return call.possible

    def _progress(self, call: _Candidate) -> None:
        """Announce the call once its name is complete; preview its streamed fields."""
        self._detect_name(call)
        if call.preview is not None and call.preview.due(call.size):
            self._events.extend(call.preview.update(call.text, _arguments_so_far))

    def _detect_name(self, call: _Candidate) -> None:
        """The name is read from the first `_NAME_WINDOW` characters only, so chunking cannot change it."""
        if call.id is not None or call.name_checked:
            return
        match = _NAME.match(call.text[:_NAME_WINDOW])
        name = jsonvalue.loads(f'"{match.group(1)}"') if match else None
        if isinstance(name, str) and name.strip():
            self._start(call, name.strip())
        elif call.size >= _NAME_WINDOW:
            call.name_checked = True

    def _start(self, call: _Candidate, name: str) -> None:
        call.name = self.catalog.canonical(name)
        call.id = self.ids.claim()
        self._events.append(ToolCallStarted(call.id, call.name))
        fields = self.catalog.streamed(call.name)
        call.preview = ArgumentPreview(call.id, fields) if fields else None

    def _await_continuation(self, call: _Candidate, text: str) -> str:
        stripped = text.lstrip()
        if not stripped:
            call.add(text)
            return ""
        if stripped[0] in "}],":
            call.awaiting = False
            call.add(text[: len(text) - len(stripped)])
            return stripped
        call.add(text[: len(text) - len(stripped)])
        self._finish_open(truncated=False)
        if not self._replay:  # a call ended (ready or invalid): the newline is behind us
            self._mode = "close_fence" if self._fence_open else "line"
        return stripped

    def _finish_closed(self, call: _Candidate) -> None:
        if not self._still_possible(call):
            self._give_up(call, "not a call", False)
            return
        self._detect_name(call)
        value = jsonvalue.loads(call.text, lenient=True)
        note = ""
        if jsonvalue.missing(value):
            fixed = repaired(call.text)
            if fixed is None:
                self._give_up(call, "the object is not valid JSON", False)
                return
            value, note = fixed
        self._conclude(call, value, note)

    def _finish_open(self, truncated: bool) -> None:
        """The object never closed: repair it once, unless the reply was cut off."""
        call = self._call
        assert call is not None
        if not self._still_possible(call):
            self._give_up(call, "not a call", True)
            return
        self._detect_name(call)
        fixed = None if truncated else repaired(call.text)
        if fixed is None:
            problem = CUT_OFF if truncated else "the object is not closed"
            self._give_up(call, problem, True)
            return
        self._conclude(call, fixed[0], fixed[1])

    def _conclude(self, call: _Candidate, value: Any, note: str) -> None:
        """Ready the call, or each call of an array of calls (a shape models use for several at once)."""
        shapes = [call_shape(item) for item in value] if isinstance(value, list) else [call_shape(value)]
        if not shapes or any(shape is None for shape in shapes):
            self._give_up(call, "the object has no tool name and arguments object", False)
            return
        self._call = None
        for position, shape in enumerate(shapes):
            assert shape is not None
            if position or call.id is None:
                self._start(call, shape[0])
            assert call.id is not None and call.name is not None
            if note:
                self._events.append(ProtocolNote(f"tool call {call.id}: repaired the JSON ({note})"))
            arguments = mended_value(shape[1], call.text)
            if call.preview is not None:
                self._events.extend(call.preview.final(arguments))
            self._events.append(ToolCallReady(call.id, call.name, arguments))
        self._fence_open, self._closers_noted = call.fenced, False
        self._mode = "after"

    def _give_up(self, call: _Candidate, problem: str, line_ended: bool) -> None:
        """Not a call after all. If it was announced as one, it is invalid. Otherwise its brace is text and
        the rest is read again as prose, exactly as if the candidate had never opened (so the outcome does
        not depend on how far the text had arrived when this was decided)."""
        self._call = None
        if call.id is None and self._still_possible(call):
            self._detect_name(call)
        if call.id is not None:
            reason = f"invalid_format: {problem}; {FORMAT_HINT}"
            self._events.append(ToolCallInvalid(call.id, reason, call.name))
            self._fence_open, self._closers_noted = call.fenced, False
            self._mode = "line" if line_ended else "after"
            return
        text = call.text
        self._text(call.prefix + text[:1])
        self._fence_open = False
        self._code = self._code or call.fenced
        self._mode, self._replay = "prose", text[1:]

    def _text(self, text: str) -> None:
        if not text:
            return
        last = self._events[-1] if self._events else None
        if isinstance(last, TextDelta):
            self._events[-1] = TextDelta(last.text + text)
        else:
            self._events.append(TextDelta(text))


def _opens_call(rest: str) -> bool | None:
    """Whether text starting with `{` opens a `{"tool":` call: True, False, or None (undecided yet)."""
    if _OPENER.match(rest):
        return True
    return None if _OPENER_PREFIX.fullmatch(rest) else False


def _arguments_so_far(value: dict[str, Any]) -> Any:
    function = value.get("function")
    if isinstance(function, dict):
        value = function
    return next((value[k] for k in ARGUMENT_KEYS if k in value), None)
