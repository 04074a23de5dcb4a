"""Token counting: the provider's usage when it reports it, a real tokenizer otherwise, an estimate last.

In the browser the counter is gpt-tokenizer's o200k_base (the encoding of OpenAI's current models),
which the platform edge installs with `use()` once its 2.4 MB of ranks have loaded after start-up
(`agentlite.browser.tokenizer`). Until then, and wherever no tokenizer is installed (CPython tests,
tools), `estimate()` stands in: no tokenizer runs in Pyodide offline (tiktoken needs its BPE files from
the network). It splits text the way the o200k / cl100k pre-tokenizers do (a word with one leading
space or symbol, digit groups of up to 3, punctuation runs, newline runs, CJK runs) and prices each piece:

    word of n letters        1 token up to 10 letters, else ceil(n / 6)
    digits                   1 token per group of up to 3
    punctuation run          ceil(n / 3), at least 1
    CJK / kana / hangul      0.7 token per character
    base64 run (32+ chars)   n / 1.6
    newline run, whitespace  1

Checked against o200k_base on 319 segments of 1,500 characters (this project's Python and JS, Markdown,
SSE transcripts, the Chinese design notes, JSON strings, base64): mean absolute error 3.6% (worst
segment 24%), where chars/4 is off by 14.3% on average (63% worst: 33% low on Chinese, 60% on base64).

`TokenCounter` then calibrates: after each round the provider's `prompt_tokens` for the request just
sent is compared with the count of that request, and the ratio (smoothed, within 0.5–2) scales every
later count, so a model whose tokenizer is not o200k (Llama, Qwen, Claude) is counted in its own tokens.
A counter that switches source (the tokenizer arrived) starts its cache and calibration afresh.

A `context_length` refusal that states the refused request's size is the truth about that server's
count: `correct()` adopts its ratio at once (no smoothing, bounds 0.2–10), and `seed()` starts a new
chat's counter from the ratio remembered for its endpoint + model (`engine.server_counts`).

A tool call is counted by its name and its arguments as the JSON string that is sent (the same string
in the history's shape and the request's, so one count serves both), and a long text is counted in
pieces of about `PIECE_CHARS`: `prepare()` counts a request's long texts ahead, yielding to the event
loop between pieces, so a 600 KB call does not hold the worker for seconds while the page's calls wait.

A message's content may be a list of parts (docs/protocol.md, "Images in requests"): its text parts are
counted as text, each image as `IMAGE_TOKENS`, and so is each image a tool message of the history's
neutral shape carries (`images`). 765 is what OpenAI bills a high-detail square image (scaled to
768 x 768: four 512-pixel tiles at 170 tokens, plus 85): a screenshot costs about that or more there,
and other providers bill an image in the hundreds to low thousands of tokens too. The figure is not
scaled by the calibration ratio (it is not text), and no image's base64 is ever counted as text.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

MESSAGE_OVERHEAD = 4  # role and separators per message (OpenAI's chat format)
REPLY_PRIMING = 3
SMOOTHING = 0.5  # weight of the newest calibration sample
RATIO_BOUNDS = (0.5, 2.0)
STATED_BOUNDS = (0.2, 10.0)  # a ratio a refusal states: far wider (tool schemas, another tokenizer)
CACHE_SIZE = 4096
IMAGE_TOKENS = 765  # one image (see the module docstring for why this figure)
PIECE_CHARS = 16_384  # a longer text is counted piece by piece (`prepare` yields between pieces)
_BREAK = re.compile(r"[\s,]")  # where a piece may end: after whitespace or a comma (JSON, code, prose)

Count = Callable[[str], int]
_installed: Count | None = None  # the platform's real tokenizer, once it has loaded

_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_UPPER = "A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f"
_PIECES = re.compile(
    rf"(?P<b64>[A-Za-z0-9+/]{{32,}}={{0,2}})"
    rf"|(?P<cjk>[^\r\n\w]?[{_CJK}]+)"
    rf"|(?P<word>[^\r\n\w]?(?:[{_UPPER}]*[^\W\d_{_UPPER}{_CJK}]+|[{_UPPER}]+(?![^\W\d_])))"
    rf"|(?P<num>\d{{1,3}})"
    rf"|(?P<punct> ?[^\s\w]+[\r\n/]*|_+)"
    rf"|(?P<newline>\s*[\r\n]+)"
    rf"|(?P<space>\s+)"
)


def _looks_base64(text: str) -> bool:
    digits = sum(ch.isdigit() for ch in text)
    upper = sum(ch.isupper() for ch in text)
    return digits >= 2 and upper >= 3 and len(text) - digits - upper >= 3


def _word(piece: str) -> float:
    letters = len(piece) - (0 if piece[0].isalpha() else 1)
    return 1.0 if letters <= 10 else float(math.ceil(letters / 6))


def estimate(text: str) -> int:
    """Estimated o200k tokens of `text` (see the module docstring for the rules and their accuracy)."""
    total = 0.0
    for match in _PIECES.finditer(text):
        kind, piece = match.lastgroup, match.group()
        if kind == "b64":
            total += len(piece) / 1.6 if _looks_base64(piece) else math.ceil(len(piece) / 6)
        elif kind == "cjk":
            total += max(1.0, len(piece.lstrip()) * 0.7)
        elif kind == "word":
            total += _word(piece)
        elif kind == "punct":
            total += max(1, math.ceil(len(piece.strip()) / 3))
        else:
            total += 1
    return round(total)


def use(count: Count | None) -> None:
    """Install the real tokenizer every counter uses from now on (None: back to the estimate)."""
    global _installed
    _installed = count


def installed() -> Count | None:
    return _installed


def count(text: str) -> int:
    """o200k tokens of `text`: the installed tokenizer's count, else the estimate."""
    return (_installed or estimate)(text)


def pieces(text: str) -> Iterator[str]:
    """`text` in pieces of about PIECE_CHARS, each ending after a whitespace or a comma when one is
    near (a token rarely spans those), else cut."""
    start = 0
    while start < len(text):
        end = start + PIECE_CHARS
        found = _BREAK.search(text, end, end + 1_024)
        end = found.end() if found else end
        yield text[start:end]
        start = end


def call_text(call: dict[str, Any]) -> str:
    """A tool call as counted: its name and arguments JSON, from the history's neutral shape
    (`{id, name, arguments: dict}`) or the request's (`{id, type, function: {name, arguments: str}}`)."""
    function = call.get("function")
    named = function if isinstance(function, dict) else call
    arguments = named.get("arguments")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments if arguments is not None else {}, ensure_ascii=False)
    return f"{named.get('name') or ''}{arguments}"


def content_texts(content: Any) -> list[str]:
    """The texts of a message's content: the string itself, or the text parts of a parts list."""
    if not isinstance(content, list):
        return [str(content or "")]
    return [
        str(part.get("text") or "")
        for part in content
        if isinstance(part, dict) and part.get("type") == "text"
    ]


def image_count(message: dict[str, Any]) -> int:
    """The images a message carries: `image_url` parts of its content, and a tool result's `images`."""
    content = message.get("content")
    parts = content if isinstance(content, list) else ()
    shown = sum(1 for part in parts if isinstance(part, dict) and part.get("type") == "image_url")
    images = message.get("images")
    return shown + (len(images) if isinstance(images, list) else 0)


def message_texts(messages: list[dict[str, Any]]) -> Iterator[str]:
    """Every text `TokenCounter.messages` counts in these messages."""
    for message in messages:
        yield from content_texts(message.get("content"))
        yield from (call_text(call) for call in message.get("tool_calls") or ())


class TokenCounter:
    """Counts in the model's own tokens: o200k (tokenizer or estimate), calibrated by provider usage.

    `source` fixes what counts (tests); without it the counter follows `use()`, so a tokenizer that
    loads while a chat is open is used from its next request on."""

    def __init__(self, source: Count | None = None) -> None:
        self.fixed = source
        self.ratio = 1.0
        self.samples = 0
        self.baseline = 1.0  # the ratio a fresh start (or a source switch) begins from
        self._source: Count | None = None
        self._cache: dict[tuple[int, int], int] = {}

    @property
    def source(self) -> Count:
        return self.fixed or _installed or estimate

    def text(self, text: str) -> int:
        raw = self._cached(text)
        if raw is None:
            source = self.source
            raw = self._remember(text, sum(source(piece) for piece in pieces(text)))
        return round(raw * self.ratio)

    async def prepare(self, texts: Iterable[str]) -> None:
        """Count the long texts not counted yet, yielding between their pieces; `text()` then finds
        them counted (the same sum of pieces it would make)."""
        for text in texts:
            if len(text) <= PIECE_CHARS or self._cached(text) is not None:
                continue
            raw = 0
            for piece in pieces(text):
                raw += self.source(piece)
                await asyncio.sleep(0)
            if self._cached(text) is None:  # the source did not change meanwhile
                self._remember(text, raw)

    def _cached(self, text: str) -> int | None:
        source = self.source
        if source is not self._source:  # new units: cached counts and the ratio no longer apply
            self._source, self.ratio, self.samples = source, self.baseline, 0
            self._cache.clear()
        return self._cache.get((hash(text), len(text)))

    def _remember(self, text: str, raw: int) -> int:
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[(hash(text), len(text))] = raw
        return raw

    def messages(self, messages: list[dict[str, Any]]) -> int:
        """Tokens of a request's messages as sent (content, its images, tool calls, tool ids)."""
        total = REPLY_PRIMING
        for message in messages:
            total += MESSAGE_OVERHEAD + sum(self.text(text) for text in content_texts(message.get("content")))
            total += IMAGE_TOKENS * image_count(message)
            for call in message.get("tool_calls") or ():
                total += self.text(call_text(call)) + MESSAGE_OVERHEAD
        return total

    def calibrate(self, estimated: int, reported: int | None) -> None:
        """Fold one provider count for a request we estimated at `estimated` into the ratio."""
        if not reported or estimated <= 0 or self._switched():
            return  # nothing reported, or `estimated` was counted in units the counter has left
        raw = estimated / self.ratio
        low, high = min(RATIO_BOUNDS[0], self.baseline), max(RATIO_BOUNDS[1], self.baseline)
        sample = min(max(reported / raw, low), high)
        weight = 1.0 if self.samples == 0 else SMOOTHING
        self.ratio = round(self.ratio * (1 - weight) + sample * weight, 4)
        self.samples += 1

    def correct(self, estimated: int, reported: int) -> float | None:
        """A refusal's count of a request we estimated at `estimated`: adopt its ratio outright.
        Returns the new ratio, or None when `estimated` is in units the counter has left."""
        if reported <= 0 or estimated <= 0 or self._switched():
            return None
        ratio = reported / (estimated / self.ratio)
        self.ratio = self.baseline = round(min(max(ratio, STATED_BOUNDS[0]), STATED_BOUNDS[1]), 4)
        self.samples += 1
        return self.ratio

    def seed(self, ratio: float) -> None:
        """Start from the ratio a refusal stated for this turn's model, 1 when none did (a counter that
        has calibrated already keeps its own ratio; the seed is where a switch of source restarts)."""
        self.baseline = ratio
        if self.samples == 0:
            self.ratio = ratio

    def _switched(self) -> bool:
        return self._source is not None and self.source is not self._source
