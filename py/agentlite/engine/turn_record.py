"""What a turn writes into its chat: the assistant bubble, replies with their tool results, and notes."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine.chat_events import Emit, MessageEnded, MessageStarted
from agentlite.engine.dispatch import Call
from agentlite.engine.history import Message, new_id
from agentlite.engine.reply import Reply


class TurnRecorder:
    """The history records and the open bubble of one turn (one bubble per model round)."""

    def __init__(self, turn_id: str, add: Callable[[Message], None], emit: Emit) -> None:
        self.turn_id, self.add, self.emit = turn_id, add, emit
        self.bubble: str | None = None

    def record_reply(self, reply: Reply, state: str, calls: list[Call]) -> None:
        """The assistant message and its tool results, once per reply, in the order they were written."""
        if reply.recorded:
            return
        reply.recorded = True
        done = [c for c in calls if c.result is not None]
        if not reply.received and not done:
            return
        tool_calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in done]
        thinking = "".join(reply.thinking)
        self.add(
            Message(
                "assistant",
                reply.content,
                turn=self.turn_id,
                state=state,
                thinking=thinking,
                tool_calls=tool_calls,
            )
        )
        for call in done:
            self.add(self._result(call))

    def _result(self, call: Call) -> Message:
        assert call.result is not None
        shown = {k: v for k, v in call.result.to_dict().items() if k not in ("data", "images")}
        return Message(
            "tool",
            call.for_model(),
            turn=self.turn_id,
            tool_call_id=call.id,
            name=call.name,
            ok=call.result.ok,
            status=call.status,
            result=shown,
            images=[image.to_dict() for image in call.result.images],
        )

    def note(self, text: str) -> None:
        """A message for the model only (continue, correct, nudge); never shown as a bubble."""
        self.add(Message("user", text, turn=self.turn_id, hidden=True))

    def open_bubble(self, round_number: int) -> None:
        if self.bubble is None:
            self.bubble = new_id("a")
            self.emit(MessageStarted(id=self.bubble, role="assistant", turn=self.turn_id, round=round_number))

    def close_bubble(self, state: str) -> None:
        if self.bubble is not None:
            self.emit(MessageEnded(id=self.bubble, state=state))
            self.bubble = None
