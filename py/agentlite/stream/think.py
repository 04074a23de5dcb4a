"""Inline reasoning tags: `<think>...</think>` in the content channel (origins: client-tools §3.3).

Models served without a reasoning parser write their thinking into the content. An opening tag counts only
at the start of a line (leading blanks allowed), so a tag quoted inside prose or inside a JSON string (which
never holds a raw newline) stays text. A closing tag counts anywhere inside thinking. A tag cut by a chunk
boundary is held back until the next chunk decides it, so every split gives the same text per kind.
Blank space right after either tag is dropped: models put a newline there that means nothing.
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["text", "thinking"]
OPENING = ("<think>", "<thinking>", "<thought>")
CLOSING = ("</think>", "</thinking>", "</thought>")


class ThinkSplitter:
    """Text in, `(kind, text)` pieces out."""

    def __init__(self) -> None:
        self.thinking = False
        self._held = ""  # a possible tag cut by the chunk boundary
        self._line_blank = True  # only blanks since the last newline of the text
        self._trim = False  # drop leading blank space (just after a tag)

    def feed(self, text: str) -> list[tuple[Kind, str]]:
        out: list[tuple[Kind, str]] = []
        buffer = self._held + text
        self._held = ""
        while buffer:
            if self._trim:
                buffer = buffer.lstrip()
                if not buffer:
                    break
                self._trim = False
            buffer = self._think(buffer, out) if self.thinking else self._text(buffer, out)
        return out

    def close(self) -> list[tuple[Kind, str]]:
        held, self._held = self._held, ""
        if not held:
            return []
        kind: Kind = "thinking" if self.thinking else "text"
        return [(kind, held)]

    def _text(self, buffer: str, out: list[tuple[Kind, str]]) -> str:
        """Emit text up to an opening tag; return what follows the tag ("" when all is consumed)."""
        position = 0
        while (lt := buffer.find("<", position)) >= 0:
            if self._at_line_start(buffer, lt):
                rest = buffer[lt:]
                tag = next((t for t in OPENING if rest.startswith(t)), None)
                if tag is not None:
                    self._emit("text", buffer[:lt], out)
                    self.thinking, self._trim = True, True
                    return rest[len(tag) :]
                if any(t.startswith(rest) for t in OPENING):
                    self._emit("text", buffer[:lt], out)
                    self._held = rest
                    return ""
            position = lt + 1
        self._emit("text", buffer, out)
        return ""

    def _think(self, buffer: str, out: list[tuple[Kind, str]]) -> str:
        position = 0
        while (lt := buffer.find("</", position)) >= 0:
            rest = buffer[lt:]
            tag = next((t for t in CLOSING if rest.startswith(t)), None)
            if tag is not None:
                self._emit("thinking", buffer[:lt], out)
                self.thinking, self._trim, self._line_blank = False, True, True
                return rest[len(tag) :]
            if any(t.startswith(rest) for t in CLOSING):
                self._emit("thinking", buffer[:lt], out)
                self._held = rest
                return ""
            position = lt + 1
        if buffer.endswith("<"):
            self._emit("thinking", buffer[:-1], out)
            self._held = "<"
            return ""
        self._emit("thinking", buffer, out)
        return ""

    def _at_line_start(self, buffer: str, index: int) -> bool:
        newline = buffer.rfind("\n", 0, index)
        before = buffer[newline + 1 : index]
        blank = not before.strip(" \t")
        return blank if newline >= 0 else blank and self._line_blank

    def _emit(self, kind: Kind, text: str, out: list[tuple[Kind, str]]) -> None:
        if not text:
            return
        if kind == "text":
            newline = text.rfind("\n")
            tail_blank = not text[newline + 1 :].strip(" \t")
            self._line_blank = tail_blank if newline >= 0 else self._line_blank and tail_blank
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + text)
        else:
            out.append((kind, text))
