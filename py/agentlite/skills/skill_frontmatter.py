"""The YAML frontmatter of a SKILL.md, read by a strict parser of the subset skills use.

Not a YAML library: PyYAML would be one more wheel on a first visit (and in the offline copy) for a few
lines of metadata, and a general YAML loader does work we do not want on a file anyone can drop into
the workspace (aliases, tags, deep nesting). The subset: top-level `key: value` pairs whose value is a
plain, single- or double-quoted scalar (a plain one may go on over more-indented lines), a `|` or `>`
block scalar, a one-level mapping of such scalars (`metadata`) or a list (`[a, b]` or `- a` lines).
Anything else is an error with the line it is on, never a guess. Values stay strings, as the format's
fields are; every piece of work is bounded by `MAX_CHARS`.

Linear in its input, since anyone can write a SKILL.md: lines are read once, a value's characters once,
and every regex here is one the search's regex check admits as linear (a test asserts it); a comment or
a closing quote is found with `str.find`, never with a pattern that rescans a run of spaces.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_CHARS = 16_384  # the frontmatter, opening and closing lines included
MAX_ITEMS = 100  # entries of one list or mapping (`metadata`, `allowed-tools`)
FENCE = "---"
_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s(.*))?")  # fullmatch; group 2 is stripped
_ITEM = re.compile(r"-(?:\s(.*))?")  # fullmatch; group 1 is stripped
_BLOCK = re.compile(r"[|>][-+]?")  # fullmatch
_LONE_BREAK = re.compile(r"(?<!\n)\n(?!\n)")  # sub: a line break that `>` folds
_FLOW_BAD = re.compile(r"[\[\]{}]")  # search
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"')  # match: a double-quoted value and its closing quote
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)")  # sub
_COMMENT = re.compile(r"\s#")  # search: a comment starts at a `#` after white space
ANCHORED = (_KEY, _ITEM, _BLOCK, _DOUBLE)  # matched from one place: linear when the check's degree <= 2
# tried at every place: linear when the check's degree is 1
SEARCHED = (_LONE_BREAK, _FLOW_BAD, _ESCAPE, _COMMENT)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0", " ": " "}
_PLAIN_START_BAD = set("&*!%@`{|>'\"[]")

Value = str | dict[str, str] | list[str]


class FrontmatterError(ValueError):
    """The frontmatter cannot be read; the message says where and why, for the user."""


@dataclass(frozen=True)
class Document:
    fields: dict[str, Value]
    body: str  # what follows the closing line


def split(text: str) -> tuple[str, str]:
    """(frontmatter, body) of a SKILL.md; FrontmatterError when it does not open and close with `---`."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if not text.startswith(FENCE + "\n") and text.rstrip(" \t") != FENCE:
        raise FrontmatterError("SKILL.md must start with a line '---' that opens the frontmatter")
    limit = min(len(text), MAX_CHARS + 8)
    at = 3  # the line break before the line looked at; only lines that start like a fence are looked at
    while (at := _next_fence(text, at, limit)) >= 0:
        end = text.find("\n", at + 1, limit)
        stop = end if end >= 0 else limit
        if text[at + 1 : stop].rstrip(" \t") in (FENCE, "...") and (end >= 0 or limit == len(text)):
            return text[4:at], text[stop + 1 :]
        at = stop
    raise FrontmatterError(f"no closing '---' line within the first {MAX_CHARS:,} characters")


def _next_fence(text: str, at: int, limit: int) -> int:
    """Where the next line that starts with `---` or `...` begins, less one (-1: none before `limit`)."""
    found = [i for i in (text.find("\n---", at, limit), text.find("\n...", at, limit)) if i >= 0]
    return min(found, default=-1)


def parse(text: str) -> Document:
    """The fields and body of a SKILL.md."""
    front, body = split(text)
    return Document(parse_fields(front), body)


def parse_fields(front: str) -> dict[str, Value]:
    lines = front.split("\n")
    fields: dict[str, Value] = {}
    at = 0
    while at < len(lines):
        line = lines[at]
        if _blank(line):
            at += 1
            continue
        if line[0] in " \t":
            raise FrontmatterError(f"line {at + 1}: unexpected indentation")
        match = _KEY.fullmatch(line.rstrip())
        if match is None:
            raise FrontmatterError(f"line {at + 1}: expected 'key: value'")
        key = match.group(1)
        if key in fields:
            raise FrontmatterError(f"line {at + 1}: '{key}' is given twice")
        block, at = _indented(lines, at + 1)
        fields[key] = _value(match.group(2) or "", block, at - len(block))
    return fields


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _indented(lines: list[str], at: int) -> tuple[list[str], int]:
    """The lines after a key that belong to its value (indented or blank), and where the next key is."""
    end = at
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    while end > at and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to no one
    return lines[at:end], end


def _value(inline: str, block: list[str], first: int) -> Value:
    inline = inline.strip()
    if inline[:1] in ("|", ">") and _BLOCK.fullmatch(_no_comment(inline)):
        return _block_scalar(_no_comment(inline), block)
    if not inline or inline.startswith("#"):
        return _nested(block, first) if any(not _blank(b) for b in block) else ""
    if inline.startswith("["):
        if any(not _blank(b) for b in block):
            raise FrontmatterError(f"line {first}: a [list] must be on one line")
        return _flow_list(inline, first)
    return _scalar(" ".join([inline, *(b.strip() for b in block if b.strip())]), first)


def _no_comment(text: str) -> str:
    """`text` without a ` # comment` (a `#` after white space), stripped; one pass over it."""
    comment = _COMMENT.search(text)
    return (text[: comment.start()] if comment is not None else text).strip()


def _block_scalar(indicator: str, block: list[str]) -> str:
    """`|` keeps line breaks, `>` folds lines into one; `-` strips the final break, `+` keeps them."""
    content = [b for b in block]
    indent = min((len(b) - len(b.lstrip()) for b in content if b.strip()), default=0)
    lines = [b[indent:] if b.strip() else "" for b in content]
    if indicator[0] == "|":
        text = "\n".join(lines)
    else:
        text = _LONE_BREAK.sub(" ", "\n".join(lines)).replace("\n\n", "\n")
    if indicator.endswith("-"):
        return text
    return text + "\n" if text else ""


def _nested(block: list[str], first: int) -> Value:
    items = [(first + i + 1, b.strip()) for i, b in enumerate(block) if not _blank(b)]
    if len(items) > MAX_ITEMS:
        raise FrontmatterError(f"line {first}: more than {MAX_ITEMS} entries under one key")
    indents = {len(block[n - first - 1]) - len(block[n - first - 1].lstrip()) for n, _ in items}
    if len(indents) != 1:
        raise FrontmatterError(f"line {items[0][0]}: only one level of nesting is read")
    if all(_ITEM.fullmatch(text) for _, text in items):
        return [_scalar((_ITEM.fullmatch(text) or _never()).group(1) or "", n) for n, text in items]
    mapping: dict[str, str] = {}
    for number, text in items:
        match = _KEY.fullmatch(text)
        if match is None:
            raise FrontmatterError(f"line {number}: expected 'key: value' or '- item'")
        if match.group(1) in mapping:
            raise FrontmatterError(f"line {number}: '{match.group(1)}' is given twice")
        mapping[match.group(1)] = _scalar(match.group(2) or "", number)
    return mapping


def _never() -> re.Match[str]:
    raise AssertionError("matched above")


def _flow_list(text: str, line: int) -> list[str]:
    body = _no_comment(text)
    if not body.endswith("]"):
        raise FrontmatterError(f"line {line}: the list is not closed with ']'")
    inner = body[1:-1].strip()
    if not inner:
        return []
    if inner.count(",") >= MAX_ITEMS:
        raise FrontmatterError(f"line {line}: more than {MAX_ITEMS} entries in the list")
    return [_scalar(part.strip(), line, flow=True) for part in inner.split(",")]


def _scalar(text: str, line: int, flow: bool = False) -> str:
    text = text.strip()
    if text.startswith('"'):
        return _double_quoted(text, line)
    if text.startswith("'"):
        return _single_quoted(text, line)
    plain = _no_comment(text) if not text.startswith("#") else ""
    if plain[:1] in _PLAIN_START_BAD or plain.startswith(("- ", "? ")) or plain in ("-", "?"):
        raise FrontmatterError(f"line {line}: put the value in quotes (it starts with {plain[:1]!r})")
    if ": " in plain or plain.endswith(":") or (flow and _FLOW_BAD.search(plain)):
        raise FrontmatterError(f"line {line}: put the value in quotes (it holds ': ')")
    return plain


def _single_quoted(text: str, line: int) -> str:
    """`'it''s'` -> `it's`: the closing quote is the first one not doubled; a comment may follow."""
    at = text.find("'", 1)
    while at > 0 and text[at + 1 : at + 2] == "'":
        at = text.find("'", at + 2)
    rest = text[at + 1 :].strip() if at > 0 else ""
    if at < 0 or (rest and not rest.startswith("#")):
        raise FrontmatterError(f"line {line}: the quoted value is not closed on its line")
    return text[1:at].replace("''", "'")


def _double_quoted(text: str, line: int) -> str:
    """A JSON-like string; its escapes are decoded by `json` (in C) when they are all JSON's, else one
    by one."""
    quoted = _DOUBLE.match(text)
    if quoted is None:
        raise FrontmatterError(f"line {line}: the quoted value is not closed on its line")
    after = text[quoted.end() :].strip()
    if after and not after.startswith("#"):
        raise FrontmatterError(f"line {line}: text after the closing quote")
    try:
        return _pairs(json.loads(f'"{quoted.group(1)}"', strict=False))
    except ValueError:
        return _pairs(_ESCAPE.sub(lambda found: _escape(found.group(1), line), quoted.group(1)))


def _pairs(text: str) -> str:
    """`\\ud83d\\ude00` escapes (as JSON writes a character past U+FFFF) as the one character; a lone
    half becomes U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _escape(code: str, line: int) -> str:
    """One escape's character: `code` is what follows the backslash (`n`, or `u` and four hex digits)."""
    if len(code) == 5:
        return chr(int(code[1:], 16))
    if code in _ESCAPES:
        return _ESCAPES[code]
    raise FrontmatterError(f"line {line}: unknown escape '\\{code}'")
