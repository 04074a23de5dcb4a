"""Loop detection (origins: engine §10): a turn that repeats itself is stopped, and the user is told why.

- The same tool with the same arguments: the 3rd time the model gets a warning with the result, the 5th
  time the engine does not run it (`rejected`) and asks the user whether to go on or cancel.
- An assistant reply identical to the previous one: stop at once. Only replies with text are compared
  (same text, and the same calls if any: the same words with new calls is progress, not a loop); a
  tool-only reply repeated is the call counter's business, so its 3 → warn / 5 → stop rule applies
  instead of a stop at the second reply.
- `finish_reason: "length"` continues automatically at most `max_continuations` times in a row (the
  model's profile: `ModelProfile.continuations`, none for the model in the page): a round that ends any
  other way resets the count (origins: engine §10.4).
Counts are per turn: a new user message is a new intent. When the user chooses to go on after a stop,
the call counts start again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentlite.profiles import REMOTE

WARN_AT = 3
STOP_AT = 5
MAX_CONTINUATIONS = REMOTE.continuations  # a network model's (agentlite.profiles)


def call_key(name: str, arguments: dict[str, Any]) -> str:
    return name + " " + json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)


@dataclass
class Verdict:
    """What the guard says about one call: run it (maybe with a warning for the model) or stop the turn."""

    count: int
    warning: str | None = None
    stop: str | None = None


@dataclass
class LoopGuard:
    calls: dict[str, int] = field(default_factory=dict)
    last_reply: str | None = None
    continuations: int = 0
    max_continuations: int = MAX_CONTINUATIONS

    def check_call(self, name: str, arguments: dict[str, Any]) -> Verdict:
        key = call_key(name, arguments)
        count = self.calls[key] = self.calls.get(key, 0) + 1
        if count >= STOP_AT:
            return Verdict(
                count,
                stop=f"The agent called {name} with the same arguments {count} times, so that call was not "
                "run and the turn was stopped to avoid a loop.",
            )
        if count >= WARN_AT:
            return Verdict(
                count,
                warning=f"Note: this is call {count} of {name} with exactly these arguments; the result will "
                f"not change. Do something different, or answer the user. Call {STOP_AT} would not run.",
            )
        return Verdict(count)

    def check_reply(self, text: str, calls: list[tuple[str, dict[str, Any]]]) -> str | None:
        """A reason to stop when this reply, having text, repeats the previous one word for word."""
        text = text.strip()
        signature = text + "\x00" + "\x00".join(call_key(n, a) for n, a in calls) if text else None
        repeated = signature is not None and signature == self.last_reply
        self.last_reply = signature
        if repeated:
            return "The agent sent the same reply twice in a row, so it was stopped to avoid a loop."
        return None

    def may_continue(self) -> bool:
        """One more automatic continuation after `length`, within the limit of continuations in a row."""
        if self.continuations >= self.max_continuations:
            return False
        self.continuations += 1
        return True

    def round_finished(self) -> None:
        """A round ended without hitting the output limit: the next `length` starts a new series."""
        self.continuations = 0

    def go_on(self) -> None:
        """The user chose to go on after a loop stop: every call gets its full allowance again."""
        self.calls.clear()
        self.last_reply = None
