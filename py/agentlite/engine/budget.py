"""The context budget (origins: engine §11, origins: orchestration 4): what of the history each request
carries.

Short term: the messages verbatim. Summary: a structured summary (Goal / Done / To do) stands in for the
oldest messages once the history is over budget. Pinned: files the user attached with `@path` survive
every cut. Long term: `engine.memory`.

Before each request `fit()` measures the request (provider-calibrated estimate, `engine.tokens`) against
the budget (the model's window minus a reserve for the answer). Over budget, in order:
1. tool results older than the last `VERBATIM` messages shrink to stubs (their first line and a note);
2. a summary replaces the oldest messages, keeping the last `VERBATIM` verbatim: the model's own
   `conversation_summary` when it covers them, else ONE engine-made summary request covering them (in
   steps of `SUMMARY_STEP` messages; the only model request that is not a conversation round).
The `context_length` strategy cuts harder: to the window the refusal states (`engine.shrink`), else
`keep` = 10, then 5 messages; a history too short for step 2 is squeezed the same way before it is
sent when it is over the budget. Either way the request keeps the system prompt,
summary, pinned references and the current turn's user message. Messages are never deleted: compaction
only moves a mark.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agentlite.engine.history import Message, aligned_start, keep_last
from agentlite.engine.prompt import Reference, references_text
from agentlite.engine.tokens import TokenCounter

VERBATIM = 20  # origins: orchestration: the last 20 messages stay as they are
SUMMARY_STEP = 10  # origins: orchestration: a summary every 10 messages
DEFAULT_WINDOW = 32_768
TRANSCRIPT_CHARS = 1_500  # of one message, in the transcript a summary request reads

SUMMARY_SYSTEM = """You condense conversations between a user and an assistant that works in a file
workspace. Write a summary that lets the assistant continue the work without the original messages.
Keep exact file paths, names, numbers and decisions. Use exactly these sections:
Goal: what the user wants.
Done: what has been done (files changed, facts found, decisions).
To do: what is left.
Facts to remember: durable facts about the user or the project worth keeping across chats, one per
line starting with "- ", or "none"."""


@dataclass
class Memo:
    """The chat's compaction state, persisted with the chat."""

    summary: str = ""
    summarized_upto: int = 0  # messages[:summarized_upto] are replaced by the summary in requests
    summary_covers: int = 0  # how far the summary reaches (a model summary may reach further)
    pinned: list[Reference] = field(default_factory=list)

    def pin(self, references: list[Reference]) -> None:
        known = {r.path: i for i, r in enumerate(self.pinned)}
        for reference in references:
            if reference.path in known:
                self.pinned[known[reference.path]] = reference
            else:
                self.pinned.append(reference)

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "summarized_upto": self.summarized_upto,
            "summary_covers": self.summary_covers,
            "pinned": [r.to_dict() for r in self.pinned],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Memo:
        data = data or {}
        pinned = [Reference(str(r["path"]), str(r["content"])) for r in data.get("pinned") or ()]
        return cls(
            str(data.get("summary") or ""),
            int(data.get("summarized_upto") or 0),
            int(data.get("summary_covers") or 0),
            pinned,
        )


def preface(memo: Memo, cut: bool, carried: str = "") -> dict[str, Any] | None:
    """The user message that opens a cut window: the summary and the pinned references (those `carried`
    by a kept user message's context block are not sent twice)."""
    parts = []
    if cut and memo.summary:
        parts.append(f"Summary of the earlier conversation:\n{memo.summary}")
    pinned = [r for r in memo.pinned if f"(Source: {r.path})" not in carried]
    if cut and pinned:
        parts.append(references_text(pinned))
    return {"role": "user", "content": "<context>\n" + "\n\n".join(parts) + "\n</context>"} if parts else None


def window(
    messages: list[Message], memo: Memo, keep: int | None = None, current: Message | None = None
) -> list[dict[str, Any]]:
    """The history part of a request, in the neutral shape. A `keep` cut (the context_length strategy)
    always keeps `current`, the turn's user message: without it the model would not know the request."""
    start = aligned_start(messages, memo.summarized_upto)
    kept: list[Message] = []
    if keep is not None:
        start = max(start, keep_last(messages, keep))
        kept = [m for m in messages[:start] if m is current]
    head = preface(memo, cut=start > 0, carried="".join(m.context for m in kept))
    body = [m.to_wire() for m in [*kept, *messages[start:]]]
    return [head, *body] if head else body


@dataclass
class Budget:
    counter: TokenCounter
    window: int = DEFAULT_WINDOW
    reserve: int = 0  # tokens kept free for the answer; 0 means a quarter of the window, at most 8,192
    vision: bool = False  # the model takes images: the images of results count (else they are not sent)

    @property
    def limit(self) -> int:
        reserve = self.reserve or min(8_192, self.window // 4)
        return max(1_024, self.window - reserve)

    def measure(self, system: str, history: list[dict[str, Any]]) -> int:
        if not self.vision:
            history = [{k: v for k, v in message.items() if k != "images"} for message in history]
        return self.counter.messages([{"role": "system", "content": system}, *history])


Summarize = Callable[[str, list[Message]], Awaitable[str]]


@dataclass
class FitReport:
    used: int
    stubbed: int = 0
    summarized: int = 0  # messages newly covered by the summary
    requested_summary: bool = False


async def fit(
    messages: list[Message], memo: Memo, system: str, budget: Budget, summarize: Summarize
) -> FitReport:
    """Bring the request within budget: stubs first, then a summary. Returns what was done."""
    report = FitReport(budget.measure(system, window(messages, memo)))
    old = len(messages) - VERBATIM
    if report.used <= budget.limit or old <= 0:
        return report
    for message in messages[:old]:
        if message.can_stub():
            message.stub = True
            report.stubbed += 1
    report.used = budget.measure(system, window(messages, memo))
    if report.used <= budget.limit:
        return report
    cut = aligned_start(messages, old)
    if cut <= memo.summarized_upto:
        return report
    before = memo.summarized_upto
    if memo.summary_covers < cut:
        cut = _whole_steps(messages, before, cut)
        memo.summary = await summarize(memo.summary, messages[before:cut])
        memo.summary_covers = cut
        report.requested_summary = True
    memo.summarized_upto = cut
    report.summarized = cut - before
    report.used = budget.measure(system, window(messages, memo))
    return report


def _whole_steps(messages: list[Message], start: int, cut: int) -> int:
    """The cut moved back to whole steps of `SUMMARY_STEP` messages (fewer stay verbatim than cut)."""
    count = cut - start
    if count <= SUMMARY_STEP:
        return cut
    stepped = aligned_start(messages, start + count // SUMMARY_STEP * SUMMARY_STEP)
    return stepped if start < stepped <= cut else cut


def transcript(messages: list[Message]) -> str:
    """Messages as plain text for a summary request (long ones cut in the middle)."""
    lines = []
    for message in messages:
        text = message.content
        if len(text) > TRANSCRIPT_CHARS:
            half = TRANSCRIPT_CHARS // 2
            text = f"{text[:half]}\n[...]\n{text[-half:]}"
        if message.role == "tool":
            label = f"[tool result {message.name} {'ok' if message.ok else 'error'}]"
        elif message.role == "assistant" and message.tool_calls:
            calls = ", ".join(f"{c['name']}({_short_args(c.get('arguments'))})" for c in message.tool_calls)
            label = f"[assistant, calling {calls}]"
        else:
            label = f"[{message.role}]"
        lines.append(f"{label}\n{text}".rstrip())
    return "\n\n".join(lines)


def _short_args(arguments: Any) -> str:
    if not isinstance(arguments, dict):
        return ""
    parts = []
    for key, value in arguments.items():
        shown = value if isinstance(value, int | float | bool) else str(value)
        shown = shown[:60] + "..." if isinstance(shown, str) and len(shown) > 60 else shown
        parts.append(f"{key}={shown!r}" if isinstance(shown, str) else f"{key}={shown}")
    return ", ".join(parts)


def summary_request(previous: str, messages: list[Message]) -> list[dict[str, Any]]:
    """The messages of an engine-made summary request (sent without tools)."""
    prior = f"Summary so far:\n{previous}\n\n" if previous else ""
    task = f"{prior}Conversation to add to the summary:\n\n{transcript(messages)}\n\nWrite the new summary."
    return [{"role": "system", "content": SUMMARY_SYSTEM}, {"role": "user", "content": task}]


def fallback_summary(previous: str, messages: list[Message]) -> str:
    """A summary built without the model (when the summary request fails): requests and actions."""
    asks = [m.content.strip().splitlines()[0][:200] for m in messages if m.role == "user" and not m.hidden]
    actions = [
        f"{m.name}: {'ok' if m.ok else 'failed'} — {(m.content.splitlines() or [''])[0][:120]}"
        for m in messages
        if m.role == "tool"
    ]
    done = "\n".join(f"- {a}" for a in actions) or "- (no tool calls)"
    goal = "\n".join(f"- {a}" for a in asks) or "- (see the summary above)"
    head = f"{previous}\n\n" if previous else ""
    return f"{head}Goal:\n{goal}\nDone:\n{done}\nTo do:\n- (not recorded)"


def facts_from_summary(summary: str) -> list[str]:
    """The "Facts to remember" lines of an engine-made summary."""
    lines = summary.splitlines()
    facts: list[str] = []
    inside = False
    for line in lines:
        stripped = line.strip()
        if stripped.lower().lstrip("#* ").startswith("facts to remember"):
            inside = True
            rest = stripped.split(":", 1)[1].strip() if ":" in stripped else ""
            if rest and rest.lower() != "none":
                facts.append(rest.lstrip("- "))
            continue
        if inside:
            if not stripped.startswith(("-", "*", "•")):
                break
            fact = stripped.lstrip("-*• ").strip()
            if fact and fact.lower() != "none":
                facts.append(fact)
    return facts
