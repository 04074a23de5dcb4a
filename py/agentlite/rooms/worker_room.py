"""The worker's room (`worker.*`): test hooks on the worker itself (docs/contract.md, testing API)."""

from __future__ import annotations

import time

BUSY_LIMIT_S = 600.0  # the longest `worker.busy` holds Python


class WorkerRoom:
    def busy(self, seconds: float) -> float:
        """Hold Python busy for `seconds` without yielding, as a runaway step would, so the page's
        watchdog can be seen to restart a worker that stopped answering; the seconds asked."""
        until = time.monotonic() + min(max(float(seconds), 0.0), BUSY_LIMIT_S)
        while time.monotonic() < until:
            pass
        return seconds
