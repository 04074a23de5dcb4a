"""A turn's next model request: its body and our count of its tokens, the context meter, and cutting it
down after a `context_length` refusal (docs/protocol.md, "Context windows that shrink")."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from agentlite.engine.budget import Budget, Memo, window
from agentlite.engine.chat_events import ContextMeter, Emit
from agentlite.engine.history import Message
from agentlite.engine.model_link import ModelLink
from agentlite.engine.project_instructions import instructions_message, read_instructions
from agentlite.engine.reply import Reply
from agentlite.engine.server_counts import ServerCounts
from agentlite.engine.shrink import Overflow, stated_overflow, target_for
from agentlite.engine.strategy import Attempt
from agentlite.engine.tokens import TokenCounter, message_texts
from agentlite.engine.turn_deps import ChatLimits
from agentlite.engine.turn_dialect import TurnDialect
from agentlite.errors import ErrorType, ModelError
from agentlite.skills.skill_listing import read_listing, skills_message
from agentlite.stream.request import build_request
from agentlite.workspace import Workspace

Squeeze = Callable[[int], Awaitable[None]]  # cut the history until the request is about this many tokens


def turn_budget(limits: ChatLimits, counts: ServerCounts, link: ModelLink, counter: TokenCounter) -> Budget:
    """The chat's window, or the smaller one a refusal stated for this endpoint and model, counted the
    way that server counts when a refusal told us."""
    key = link.key
    counter.seed(counts.ratio(key) or 1.0)  # 1: nothing stated for this model (another's ratio must go)
    stated = counts.window(key)
    return Budget(counter, min(limits.window, stated or limits.window), limits.reserve, link.vision)


class NextRequest:
    """What the turn sends next. `body()` has no side effects: retries compare bodies to know whether a
    repair changed anything; `build()` records what was sent."""

    def __init__(
        self,
        link: TurnDialect,
        history: tuple[list[Message], Memo],
        budget: Budget,
        *,
        system: str,
        tools: Callable[[], list[dict[str, Any]]],
        counter: TokenCounter,
        emit: Emit,
    ) -> None:
        self.link, (self.messages, self.memo), self.budget = link, history, budget
        self.system, self.all_tools, self.counter, self.emit = system, tools, counter, emit
        self.current: Message | None = None  # the turn's user message: every cut request keeps it
        self.forced: str | None = None  # the tool the user picked, until the model calls it
        self.keep: int | None = None  # a message-count cut after a refusal that stated no size
        self.no_tools = False  # the user's `no tools` alternative
        self.sent: tuple[dict[str, Any], int] = ({}, 0)  # the last request's body and our count of it
        self.instructions = ""  # the AGENTS.md layer, read again before each request (the turn sets it)
        self.skills = ""  # the skills' listing, after it (docs/skills.md), read again likewise
        self.smaller = 0  # smaller requests sent after context refusals, since the user last decided
        self.skills_listed = True  # the model's profile may want none (ModelProfile.skills_listed)

    async def read_layers(self, workspace: Workspace | None) -> None:
        """Read the AGENTS.md layer and the skills' listing again (an edit applies to the next request).
        Without tools (Chat mode, `no tools`) the skills are not listed: nothing could load them; nor
        when the model's profile lists none (its few tools have no `load_skill`)."""
        self.instructions = await read_instructions(workspace)
        listed = bool(self.tool_defs()) and self.skills_listed
        self.skills = await read_listing(workspace, self.budget.window, self.counter.text) if listed else ""

    def tool_defs(self) -> list[dict[str, Any]]:
        return [] if self.no_tools else self.all_tools()

    def body(self) -> tuple[dict[str, Any], int]:
        history = self._history()
        model, dialect = self.link.model_link.model, self.link.dialect
        return request_body(
            model, dialect, self.tool_defs(), history, counter=self.counter, **self._options()
        )

    def _options(self) -> dict[str, Any]:
        return {"system": self.system, "forced": self.forced, "vision": self.link.model_link.vision}

    def _history(self) -> list[dict[str, Any]]:
        return [
            *instructions_message(self.instructions),
            *skills_message(self.skills),
            *window(self.messages, self.memo, self.keep, current=self.current),
        ]

    async def warm(self) -> None:
        """Count the long texts of the next request and of the history it comes from ahead, yielding
        between pieces: the counts after it (the body, compaction) are then quick."""
        history = self._history()
        model, dialect = self.link.model_link.model, self.link.dialect
        body = wire_body(model, dialect, self.tool_defs(), history, **self._options())
        await self.counter.prepare([*message_texts(history), *message_texts(body["messages"])])

    def size(self) -> int:
        """Our count of the next request's tokens, tool definitions included."""
        return self.body()[1]

    def build(self) -> tuple[dict[str, Any], int]:
        """The body to send (`TurnDialect.chat`) and our count of it."""
        body, estimate = self.body()
        self.sent = (body, estimate)
        self.meter(estimate, "estimate")
        return body, estimate

    def meter(self, used: int, source: str) -> None:
        """The meter, with the AGENTS.md layer's and the skills' own shares when there are some."""
        share = self.counter.messages(instructions_message(self.instructions)) if self.instructions else None
        skills = self.counter.messages(skills_message(self.skills)) if self.skills else None
        self.emit(
            ContextMeter(
                used=used,
                window=self.budget.window,
                limit=self.budget.limit,
                source=source,
                instructions=share,
                skills=skills,
            )
        )

    def measured(self, estimate: int, reply: Reply) -> None:
        """The provider's count of what we sent: calibrate ours, show theirs."""
        usage = reply.usage
        if usage is not None and usage.prompt_tokens:
            self.counter.calibrate(estimate, usage.prompt_tokens)
            self.meter(usage.prompt_tokens + (usage.completion_tokens or 0), "provider")

    async def shrink(
        self, error: ModelError, attempt: Attempt, counts: ServerCounts, squeeze: Squeeze
    ) -> bool:
        """After a `context_length` refusal: learn what it states (into `counts`, for every chat), then
        cut the request under the refused one. Never the same body twice: False when nothing could go."""
        refused = self.sent[0]
        overflow = stated_overflow(error.message)
        self._learn(overflow, attempt, counts)
        target = target_for(overflow, self.budget.limit, body_size(refused, self.counter))
        if overflow.window or self.body()[0] == refused:
            await squeeze(target)
        changed = self.body()[0] != refused
        self.smaller += changed
        return changed

    def _learn(self, overflow: Overflow, attempt: Attempt, counts: ServerCounts) -> None:
        """The stated window bounds this turn and later ones; the stated size is the server's count of
        what we sent, so ours is scaled to it from now on (docs/protocol.md, "Context windows that
        shrink")."""
        key = self.link.model_link.key
        if overflow.window:
            counts.learn_window(key, overflow.window)
            self.budget.window = min(self.budget.window, overflow.window)
        else:
            self.keep = 10 if attempt.number <= 1 else 5  # no size stated: cut by message count first
        if overflow.sent:
            ratio = self.counter.correct(self.sent[1], overflow.sent)
            if ratio is not None:
                counts.learn_ratio(key, ratio)

    def gave_up(self, error: ModelError) -> ModelError:
        """The error the user decides on: a context refusal says whether a smaller request was refused
        too or nothing could be cut. The count of smaller requests starts again after the decision."""
        if error.type is not ErrorType.CONTEXT_LENGTH:
            return error
        tried, self.smaller = self.smaller, 0
        if tried:
            note = f"A smaller request (about {self.sent[1]:,} tokens) was refused too."
        else:
            note = "Nothing more could be cut from the request."
        return replace(error, message=f"{error.message.rstrip()} {note}")

    async def cut(self, share: float, squeeze: Squeeze) -> bool:
        """Squeeze the next request to `share` of its size; whether its body now differs from the last."""
        refused, target = self.sent[0], int(self.size() * share)
        await squeeze(target)
        return self.body()[0] != refused


def request_body(
    model: str,
    dialect: str,
    tools: list[dict[str, Any]],
    history: list[dict[str, Any]],
    *,
    system: str,
    forced: str | None,
    counter: TokenCounter,
    vision: bool = False,
) -> tuple[dict[str, Any], int]:
    """`history` is the windowed history (`budget.window`); without tools it goes as plain text."""
    body = wire_body(model, dialect, tools, history, system=system, forced=forced, vision=vision)
    return body, body_size(body, counter)


def wire_body(
    model: str,
    dialect: str,
    tools: list[dict[str, Any]],
    history: list[dict[str, Any]],
    *,
    system: str,
    forced: str | None,
    vision: bool = False,
) -> dict[str, Any]:
    """The request's body (not counted); `vision`: the images of results go with it."""
    if not tools:
        dialect, history = "native", flatten(history)
    extra: dict[str, Any] = {}
    if forced and dialect == "native" and tools:
        extra["tool_choice"] = {"type": "function", "function": {"name": forced}}
    return build_request(model, dialect, history, tools, system=system, extra=extra, vision=vision)


def body_size(body: dict[str, Any], counter: TokenCounter) -> int:
    """Our count of a request body's tokens: its messages and its tool definitions."""
    tools = body.get("tools")
    return counter.messages(body.get("messages") or []) + (counter.text(json.dumps(tools)) if tools else 0)


def flatten(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """History for a request without tools (Chat mode): calls as prose, results as user text; a user
    message's attached images stay with it."""
    flat: list[dict[str, Any]] = []
    for message in history:
        item: dict[str, Any]
        if message["role"] == "tool":
            text = f"[tool result · {message.get('name')} · {'ok' if message.get('ok') else 'error'}]\n"
            item = {"role": "user", "content": text + str(message.get("content") or "")}
        elif message["role"] == "assistant":
            calls = ", ".join(c["name"] for c in message.get("tool_calls") or ())
            content = str(message.get("content") or "") + (f"\n(used tools: {calls})" if calls else "")
            item = {"role": "assistant", "content": content.strip() or "(no text)"}
        else:  # a user message keeps the images attached to it (docs/attachments.md)
            item = {"role": message["role"], "content": message.get("content") or ""}
            if message.get("images"):
                item["images"] = list(message["images"])
        if flat and flat[-1]["role"] == item["role"] == "user":
            flat[-1]["content"] += "\n\n" + item["content"]
            if item.get("images"):
                flat[-1]["images"] = [*flat[-1].get("images", ()), *item["images"]]
        else:
            flat.append(item)
    return flat
