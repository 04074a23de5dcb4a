"""`TurnTools`: the tools a turn offers, one snapshot per round.

The engine's registry is shared and live: a remote server's tools join, change or leave when its list is
read again (mcp.servers), when the user turns one off or adds a server, at any time. A turn never reads
it in the middle of a round. As each round begins it takes a snapshot: the lists the servers said changed
are read first (`reread_remote`, bounded), their tools fitted to the request's window (`fit_remote`),
then the registry copied. That round's request offers what the snapshot holds and its calls run only
that (a tool turned off during the round still runs in it; one added is offered at the next round).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.tools.registry import ToolRegistry


class TurnTools:
    def __init__(
        self,
        registry: ToolRegistry,
        fit_remote: Callable[[int], None],
        reread_remote: Callable[[], Awaitable[None]],
    ) -> None:
        self.live, self.fit_remote, self.reread_remote = registry, fit_remote, reread_remote  # SharedDeps'
        self.taken: ToolRegistry | None = None  # the round's snapshot (None: no round taken yet)

    async def take(self, window: int) -> None:
        """A round begins: what the servers announced is read, and the round's snapshot taken."""
        await self.reread_remote()
        self.taken = None
        self._snapshot(window)

    def definitions(self, window: int) -> list[dict[str, Any]]:
        """The round's tool definitions (a snapshot is taken first when none was: the turn's first
        count of its request comes before its first round)."""
        return self._snapshot(window).definitions()

    @property
    def registry(self) -> ToolRegistry:
        """The round's tools by name, which its calls resolve against."""
        return self.taken if self.taken is not None else self.live

    def _snapshot(self, window: int) -> ToolRegistry:
        if self.taken is None:
            self.fit_remote(window)
            self.taken = ToolRegistry(self.live)
        return self.taken
