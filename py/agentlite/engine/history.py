"""The messages of one chat, as the engine keeps them (and persists them).

Each message is kept whole, with what the UI needs to show it again after a reload (state, thinking,
tool statuses) and what the model needs (the per-turn context block sent with a user message). The
request shape (`to_wire`) is the neutral one `agentlite.stream.request` renders per dialect. History only
grows: compaction never deletes a message, it moves the summary mark and turns old results into stubs.
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import asdict, dataclass, field, fields
from typing import Any

STUB_OVER = 600  # characters: a tool result longer than this may be sent as a stub once it is old

_ids = itertools.count(1)
_TAG = secrets.token_hex(2)  # ids made after a reload never collide with restored ones


def new_id(prefix: str = "m") -> str:
    return f"{prefix}{_TAG}{next(_ids)}"


@dataclass
class Message:
    role: str  # user | assistant | tool
    content: str = ""
    id: str = field(default_factory=new_id)
    turn: str | None = None
    parent: str | None = None  # the message this one follows (`engine.branches`); None: the first
    context: str = ""  # user: the context block sent before the text (open file, references, memory)
    hidden: bool = (
        False  # a message the engine wrote for the model (continue, correct); not shown as a bubble
    )
    state: str = "done"  # assistant: done | interrupted | error
    thinking: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # assistant: {id, name, arguments}
    tool_call_id: str | None = None  # tool
    name: str | None = None  # tool
    ok: bool = True  # tool
    status: str | None = None  # tool: completed | failed | rejected
    result: dict[str, Any] | None = None  # tool: the result as the UI shows it
    stub: bool = False  # tool: sent to the model as a short stub (the full result stays here)

    def to_wire(self) -> dict[str, Any]:
        """The message in the neutral request shape (`agentlite.stream.request`)."""
        if self.role == "tool":
            content = self.stub_text() if self.stub else self.content
            return {
                "role": "tool",
                "tool_call_id": self.tool_call_id or "",
                "name": self.name or "tool",
                "content": content,
                "ok": self.ok,
            }
        if self.role == "assistant":
            wire: dict[str, Any] = {"role": "assistant", "content": self.content}
            if self.tool_calls:
                wire["tool_calls"] = [dict(call) for call in self.tool_calls]
            return wire
        content = f"{self.context}\n\n{self.content}" if self.context else self.content
        return {"role": "user", "content": content}

    def stub_text(self) -> str:
        first = self.content.splitlines()[0] if self.content else ""
        return (
            f"{first[:200]}\n[{len(self.content):,} characters of this {self.name or 'tool'} result were "
            "left out to save context; call the tool again if you need them]"
        )

    def can_stub(self) -> bool:
        return self.role == "tool" and not self.stub and len(self.content) > STUB_OVER

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {k: v for k, v in data.items() if v not in (None, "", [], False) or k in ("role", "ok")}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def view(self) -> dict[str, Any]:
        """What the page renders of a restored message."""
        data = self.to_dict()
        data.pop("context", None)
        return data


def starts_turn(message: Message) -> bool:
    return message.role == "user" and not message.hidden


def aligned_start(messages: list[Message], start: int) -> int:
    """The first index at or after `start` that may open a request window: never a tool result, whose
    call would be cut off from it."""
    index = max(0, start)
    while index < len(messages) and messages[index].role == "tool":
        index += 1
    return index


def keep_last(messages: list[Message], count: int) -> int:
    """The start index that keeps the last `count` messages (moved forward past orphaned results)."""
    return aligned_start(messages, len(messages) - count)
