"""`Pace`: how often a server's tool list may be read again.

A server decides when its list is read: it says `notifications/tools/list_changed`, as often as it
likes (on its listening stream, or inside every call's answer). Each reading rebuilds and re-registers
its tools, so a server that floods the notification, or announces a new list after every call, would
keep the worker doing that. A `Pace` is a token bucket: a burst of `BURST`
readings, then one per `GAP` seconds; a reading asked for too soon waits for its turn (the server's
notification is remembered, so the last change is still read).
"""

from __future__ import annotations

import time
from collections.abc import Callable

BURST = 3  # readings at once (the connection's, then changes announced one after the other)
GAP = 5.0  # seconds per reading after the burst


class Pace:
    def __init__(self, burst: int = BURST, gap: float = GAP, clock: Callable[[], float] = time.monotonic):
        self.burst, self.gap, self.clock = burst, gap, clock
        self.tokens = float(burst)
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + max(0.0, now - self.stamp) / self.gap)
        self.stamp = now

    def wait(self) -> float:
        """Seconds until a reading may be taken (0: now)."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) * self.gap

    def take(self) -> bool:
        """Take a reading's token when one is there."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
