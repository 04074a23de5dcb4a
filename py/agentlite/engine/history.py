"""The messages of one chat, as the engine keeps them (and persists them).

Each message is kept whole, with what the UI needs to show it again after a reload (state, thinking,
tool statuses) and what the model needs (the per-turn context block sent with a user message). The
request shape (`to_wire`) is the neutral one `agentlite.stream.request` renders per dialect. History only
grows: compaction never deletes a message, it moves the summary mark and turns old results into stubs.
A tool message keeps the images its result carried (`images`, at most `tools.images.MAX_IMAGES`, each
checked there, and again when a stored chat is read); a stub sends none of them.
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from agentlite import user_attachments
from agentlite.tools.images import MAX_IMAGES, ToolImage

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
    images: list[dict[str, str]] = field(default_factory=list)  # tool: {mime, data} (`tools.images`)
    # user: the images and PDFs attached (`user_attachments`)
    attachments: list[dict[str, Any]] = field(default_factory=list)

    def to_wire(self) -> dict[str, Any]:
        """The message in the neutral request shape (`agentlite.stream.request`)."""
        if self.role == "tool":
            content = self.stub_text() if self.stub else self.content
            tool: dict[str, Any] = {
                "role": "tool",
                "tool_call_id": self.tool_call_id or "",
                "name": self.name or "tool",
                "content": content,
                "ok": self.ok,
            }
            if self.images and not self.stub:
                tool["images"] = [dict(image) for image in self.images]
            return tool
        if self.role == "assistant":
            wire: dict[str, Any] = {"role": "assistant", "content": self.content}
            if self.tool_calls:
                wire["tool_calls"] = [dict(call) for call in self.tool_calls]
            return wire
        text = user_attachments.prompt_text(self.content, self.attachments)
        user: dict[str, Any] = {
            "role": "user",
            "content": f"{self.context}\n\n{text}" if self.context else text,
        }
        images = user_attachments.sent_images(self.attachments)
        if images:
            user["images"] = images
        return user

    def stub_text(self) -> str:
        first = self.content.splitlines()[0] if self.content else ""
        images = f" and its {len(self.images)} image(s)" if self.images else ""
        return (
            f"{first[:200]}\n[{len(self.content):,} characters of this {self.name or 'tool'} result{images} "
            "were left out to save context; call the tool again if you need them]"
        )

    def can_stub(self) -> bool:
        big = len(self.content) > STUB_OVER or bool(self.images)
        return self.role == "tool" and not self.stub and big

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {k: v for k, v in data.items() if v not in (None, "", [], False) or k in ("role", "ok")}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        known = {f.name for f in fields(cls)}
        message = cls(**{k: v for k, v in data.items() if k in known})
        message.images = checked_images(message.images)
        message.attachments = user_attachments.check(message.attachments).kept
        return message

    def view(self) -> dict[str, Any]:
        """What the page renders of a restored message."""
        data = self.to_dict()
        data.pop("context", None)
        images = data.pop("images", None)
        if self.attachments:
            data["attachments"] = user_attachments.view(self.attachments)
        if isinstance(self.result, dict):  # the page shows the checked `images`, never a result's own
            shown = {k: v for k, v in self.result.items() if k != "images"}
            data["result"] = {**shown, "images": images} if images else shown
        return data


def checked_images(images: object) -> list[dict[str, str]]:
    """Stored images that pass the checks again (a stored or imported chat may be old or edited)."""
    found = (ToolImage.from_dict(image) for image in (images if isinstance(images, list) else ()))
    return [image.to_dict() for image in found if image is not None][:MAX_IMAGES]


def carries_images(messages: list[Message]) -> bool:
    """Whether a request of these messages would send an image (to a model that takes them)."""
    return any(m.images or user_attachments.sent_images(m.attachments) for m in messages)


def drop_images(messages: list[Message]) -> None:
    """The server refused images ("Retry without images"): none of these messages sends one again. A
    user message's images stay shown, marked not sent; a result's images give way to a line saying so."""
    for message in messages:
        user_attachments.drop_images(message.attachments)
        if message.images:
            count = len(message.images)
            message.images = []
            message.content += (
                f"\n[{count} image(s) of this result were not sent: the model does not take images]"
            )


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
