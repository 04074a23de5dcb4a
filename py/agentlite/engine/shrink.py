"""Requests that shrink after a `context_length` refusal (docs/protocol.md, "Context windows that shrink").

A refusal usually states the window and the size of the refused request ("maximum context length is 4097
tokens ... resulted in 4294 tokens"; llama.cpp: "request (4294 tokens) exceeds the available context size
(4096 tokens)"). `stated_overflow()` reads both. `squeeze()` then brings the request under a target in
steps that lose the least first: tool results before this turn shrink to stubs, then the turns before
this one fold into the summary, then this turn's own tool results (all but the newest) shrink too. The
system prompt and the turn's user message are never touched, and messages are never deleted: a stub and
the summary mark are the only changes.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from agentlite.engine.budget import Memo
from agentlite.engine.history import Message

_NUMBER = r"(\d[\d,]*)"
_WINDOW = (
    re.compile(rf"maximum context length is {_NUMBER}", re.I),
    re.compile(rf"context (?:size|window|length)[^\d]{{0,12}}\(?{_NUMBER} tokens", re.I),
    re.compile(rf"{_NUMBER}[- ]token (?:context|window)", re.I),
)
_SENT = (
    re.compile(rf"resulted in {_NUMBER} tokens", re.I),
    re.compile(rf"request \({_NUMBER} tokens\)", re.I),
    re.compile(rf"(?:requested|prompt (?:has|contains|is)) {_NUMBER} tokens", re.I),
)
SHRINK_UNSTATED = 0.75  # a retry the stated window cannot size aims at this share of the refused request
SAFETY = 0.95  # aim a little under the stated window: our count of the model's tokens is an estimate

Measure = Callable[[], int]
Summarize = Callable[[str, list[Message]], Awaitable[str]]


@dataclass(frozen=True)
class Overflow:
    """What a refusal says: the model's window and the size of the refused request, when it says."""

    window: int | None = None
    sent: int | None = None


def stated_overflow(message: str) -> Overflow:
    return Overflow(_first(_WINDOW, message), _first(_SENT, message))


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            value = int(match.group(1).replace(",", ""))
            if value > 0:
                return value
    return None


def target_for(overflow: Overflow, limit: int, refused: int) -> int:
    """The size the next request must stay under. `refused` is the refused request's size in the units
    `limit` is in (the server's own count when it stated one: the counter was corrected to it). Always
    under `refused`: a window our count already meets still gets a cut of `SHRINK_UNSTATED`."""
    unstated = min(limit, int(refused * SHRINK_UNSTATED))
    if overflow.window is None:
        return unstated
    stated = min(limit, int(overflow.window * SAFETY))
    return stated if stated < refused else unstated


async def squeeze(
    messages: list[Message],
    memo: Memo,
    current: Message | None,
    measure: Measure,
    target: int,
    summarize: Summarize,
) -> int:
    """Shrink until `measure()` is at most `target`; returns how many changes were made (0: none could)."""
    turn = _index(messages, current)
    changes = 0
    for message in messages[:turn]:
        if measure() <= target:
            return changes
        changes += _stub(message)
    if measure() > target and turn > memo.summarized_upto:
        changes += await _fold(messages, memo, turn, summarize)
    newest = max((i for i, m in enumerate(messages) if m.role == "tool"), default=-1)
    for message in messages[turn:newest]:
        if measure() <= target:
            return changes
        changes += _stub(message)
    return changes


def _index(messages: list[Message], current: Message | None) -> int:
    for i, message in enumerate(messages):
        if message is current:
            return i
    return len(messages)


def _stub(message: Message) -> int:
    if message.role != "tool" or message.stub or len(message.stub_text()) >= len(message.content):
        return 0
    message.stub = True
    return 1


async def _fold(messages: list[Message], memo: Memo, turn: int, summarize: Summarize) -> int:
    """The turns before this one into the summary (asking for it only when it does not reach them)."""
    if memo.summary_covers < turn:
        start = max(memo.summarized_upto, memo.summary_covers)
        memo.summary = await summarize(memo.summary, messages[start:turn])
        memo.summary_covers = turn
    memo.summarized_upto = turn
    return 1
