"""The real tokenizer for the agent's token counts: gpt-tokenizer's o200k_base in JS.

The worker imports it (web/src/agent/worker/tokens.js, a bundle of its own: 2.76 MB of ranks) when the first
message is sent, not on every start (web/src/agent/worker/inbox.js), registers it as the JS module
`agentlite_tokens` and calls `install()`; from then on every token count (`agentlite.engine.tokens`)
is the tokenizer's. A string the tokenizer fails on is estimated instead, so counting never breaks a
turn.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from agentlite.engine import tokens

MODULE = "agentlite_tokens"
log = logging.getLogger(__name__)


def counter(module: Any) -> tokens.Count:
    """A count function over the JS module's `count(text) -> number`."""

    def count(text: str) -> int:
        try:
            return int(module.count(text))
        except Exception:  # a JS error on an odd string: the estimate is close enough for a budget
            log.warning("the tokenizer failed on a %d-character text; estimating it", len(text))
            return tokens.estimate(text)

    return count


def install(module: Any | None = None) -> None:
    tokens.use(counter(module if module is not None else importlib.import_module(MODULE)))
