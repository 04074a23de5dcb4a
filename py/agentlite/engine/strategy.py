"""The error strategy matrix (seed 001 §6, seed 003 point 2): what the engine does about each failure.

One table, `MATRIX`, row per error type: how many automatic retries, how long to wait before each, what
each retry changes, and what "Try an alternative" means; `ADVICE` says what the user is told when the
retries run out. The loop asks `next_attempt()`; `None` means the user decides (retry / alternative /
skip / cancel). Tool errors never reach the user here (`decide=False`): their result goes to the model.

Waits are exponential with jitter (1 s, then 3 s, ±25%) unless the endpoint sent Retry-After, which is
honoured up to `MAX_HONOURED_WAIT`; a longer one goes straight to the user. The sleep and the random
source are injected so tests never wait.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from agentlite.errors import ErrorType, ModelError

MAX_HONOURED_WAIT = 60.0  # seconds; a Retry-After above this is not waited out automatically
BACKOFF_BASE = 1.0
BACKOFF_FACTOR = 3.0
BACKOFF_CAP = 30.0
JITTER = 0.25


class Wait(enum.StrEnum):
    NONE = "none"  # retry at once (the request itself changes)
    BACKOFF = "backoff"  # exponential with jitter
    RETRY_AFTER = "retry_after"  # the endpoint's Retry-After, else backoff


class Repair(enum.StrEnum):
    """What a retry changes in the request."""

    SAME = "same"  # the same request (nothing of the failed attempt was shown, or it is kept and continued)
    # fit the window the refusal states (engine.shrink), else keep system, summary, pinned references and
    # the last 10, then the last 5 messages; a request that cannot change is not resent: the user decides
    TRUNCATE = "truncate"
    CORRECT = "correct"  # tell the model what was malformed and ask it once to send it again correctly
    NUDGE = "nudge"  # the reply was empty: ask once for an answer


class Alternative(enum.StrEnum):
    """What "Try an alternative" does."""

    COMPACT = "compact"  # summarise the older messages and send only the last 5: a smaller, cheaper request
    SWITCH_DIALECT = "switch_dialect"  # native tool calls ↔ the prompt-reinforced JSON protocol
    NO_TOOLS = "no_tools"  # one round without tools: the model answers in plain text


@dataclass(frozen=True)
class Strategy:
    retries: int  # automatic retries before the user decides
    wait: Wait
    repair: Repair
    alternative: Alternative | None
    decide: bool = True  # False: nothing for the user to decide (a tool error goes to the model)
    ask_settings: bool = False  # the fix is in Settings (the key)


E = ErrorType
W, R, A = Wait, Repair, Alternative
MATRIX: dict[ErrorType, Strategy] = {
    # error type       retries  wait          each retry  "Try an alternative"
    E.RATE_LIMIT:     Strategy(2, W.RETRY_AFTER, R.SAME,     A.COMPACT),
    E.NETWORK:        Strategy(2, W.BACKOFF,     R.SAME,     A.COMPACT),
    E.TIMEOUT:        Strategy(2, W.BACKOFF,     R.SAME,     A.COMPACT),
    E.SERVER:         Strategy(2, W.BACKOFF,     R.SAME,     A.COMPACT),
    E.AUTH:           Strategy(0, W.NONE,        R.SAME,     None, ask_settings=True),
    E.CONTEXT_LENGTH: Strategy(2, W.NONE,        R.TRUNCATE, A.COMPACT),
    E.INVALID_FORMAT: Strategy(1, W.NONE,        R.CORRECT,  A.SWITCH_DIALECT),
    E.EMPTY_RESULT:   Strategy(1, W.NONE,        R.NUDGE,    A.NO_TOOLS),
    E.PROTOCOL:       Strategy(0, W.NONE,        R.SAME,     A.SWITCH_DIALECT),
    E.TOOL:           Strategy(0, W.NONE,        R.SAME,     None, decide=False),
}  # fmt: skip

ADVICE: dict[ErrorType, str] = {  # shown with the decision: what the user can do
    E.RATE_LIMIT: "The endpoint is rate limiting requests. Wait a moment and retry.",
    E.NETWORK: "The model endpoint could not be reached. Check the connection and the base URL.",
    E.TIMEOUT: "The model took too long to answer. A smaller request may get through.",
    E.SERVER: "The model endpoint had an internal error.",
    E.AUTH: "The endpoint refused the API key. Enter a valid key in Settings, then retry.",
    E.CONTEXT_LENGTH: "The conversation is too long for the model. Start a new chat or attach less.",
    E.INVALID_FORMAT: "The model's output did not follow the tool-call format.",
    E.EMPTY_RESULT: "The model sent an empty reply. Rephrase the request or retry.",
    E.PROTOCOL: "The endpoint's answer could not be used. Check the model name and the dialect.",
    E.TOOL: "A tool failed; its error went back to the model.",
}


@dataclass(frozen=True)
class Attempt:
    """One automatic retry: wait `wait_s`, then send again changed by `repair` (`number` counts from 1)."""

    number: int
    wait_s: float
    repair: Repair


class Backoff:
    """Exponential waits with jitter; `rng` is injectable for deterministic tests."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def delay(self, attempt: int) -> float:
        base = min(BACKOFF_CAP, BACKOFF_BASE * BACKOFF_FACTOR ** max(0, attempt - 1))
        return round(base * (1 + self.rng.uniform(-JITTER, JITTER)), 3)


def strategy_for(error_type: ErrorType) -> Strategy:
    return MATRIX[error_type]


def next_attempt(error: ModelError, failures: int, backoff: Backoff) -> Attempt | None:
    """The retry after the `failures`-th failure of this kind in a row, or None: the user decides."""
    strategy = MATRIX[error.type]
    if failures > strategy.retries:
        return None
    if strategy.wait is Wait.RETRY_AFTER and error.retry_after is not None:
        if error.retry_after > MAX_HONOURED_WAIT:
            return None
        wait = float(error.retry_after)
    elif strategy.wait is Wait.NONE:
        wait = 0.0
    else:
        wait = backoff.delay(failures)
    return Attempt(failures, wait, strategy.repair)


def decision_options(error_type: ErrorType) -> list[str]:
    """The choices the user gets when the retries have run out (CONTRACT: decision-* test ids)."""
    strategy = MATRIX[error_type]
    options = ["retry"]
    if strategy.alternative is not None:
        options.append("alternative")
    return [*options, "skip", "cancel"]
