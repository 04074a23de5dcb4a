"""Keeping a turn's requests inside the context budget: stubs, summaries, and squeezing on a refusal."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine.budget import Budget, Memo, facts_from_summary, fallback_summary, fit, summary_request
from agentlite.engine.chat_events import ContextMeter, Emit, SummaryMade
from agentlite.engine.history import Message, keep_last
from agentlite.engine.memory import MemoryStore
from agentlite.engine.model_link import ModelLink
from agentlite.engine.reply import drain_text
from agentlite.engine.shrink import squeeze
from agentlite.errors import ModelError


class Compactor:
    """Fits the chat's history (its `messages` and `memo`, changed in place) into the turn's budget.

    `request_size` is the turn's count of its next request; `endpoint` the model link the turn uses
    now (they may change while the user decides), for summary requests."""

    def __init__(
        self,
        messages: list[Message],
        memo: Memo,
        budget: Budget,
        system: str,
        *,
        request_size: Callable[[], int],
        endpoint: Callable[[], ModelLink],
        memory: MemoryStore | None,
        emit: Emit,
    ) -> None:
        self.messages, self.memo, self.budget, self.system = messages, memo, budget, system
        self.request_size, self.endpoint, self.memory, self.emit = request_size, endpoint, memory, emit

    async def compact(self, current: Message | None, hard: bool = False) -> None:
        """Stub old results and summarize old messages until the next request fits; `hard` first
        summarizes everything but the last five messages (the user's `compact` alternative)."""
        memo, messages = self.memo, self.messages
        if hard:
            cut = keep_last(messages, 5)
            if cut > memo.summarized_upto:
                memo.summary = await self.summarize(memo.summary, messages[memo.summarized_upto : cut])
                memo.summarized_upto = memo.summary_covers = cut
        report = await fit(messages, memo, self.system, self.budget, self.summarize)
        if not (report.stubbed or report.summarized) and self.request_size() > self.budget.limit:
            # a history too short for `fit` to cut, in a small window (tool definitions count too)
            limit = self.budget.limit
            squeezed = await squeeze(messages, memo, current, self.request_size, limit, self.summarize)
            report.stubbed += squeezed
            report.used = self.request_size()
        if report.stubbed or report.summarized or hard:
            self.emit(
                ContextMeter(
                    used=report.used,
                    window=self.budget.window,
                    limit=self.budget.limit,
                    source="estimate",
                    stubbed=report.stubbed,
                    summarized=memo.summarized_upto,
                )
            )

    async def squeeze_to(self, target: int, current: Message | None) -> None:
        """Cut the next request down to about `target` tokens (after a refusal)."""
        await squeeze(self.messages, self.memo, current, self.request_size, target, self.summarize)

    async def summarize(self, previous: str, messages: list[Message]) -> str:
        link = self.endpoint()
        body = {"model": link.model, "stream": True, "messages": summary_request(previous, messages)}
        try:
            text = (await drain_text(lambda: link.endpoint.chat(body))).strip()
        except ModelError:
            text = ""
        source = "model" if text else "fallback"
        text = text or fallback_summary(previous, messages)
        if self.memory is not None and source == "model":
            for fact in facts_from_summary(text):
                await self.memory.add(fact, source="summary")
        self.emit(SummaryMade(covered=len(messages), source=source, text=text))
        return text
