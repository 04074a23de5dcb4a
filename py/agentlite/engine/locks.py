"""Resource locks shared by every chat of a workspace (origins: orchestration 5: a queue and locks per
resource).

A tool names the resources it touches (`Tool.resources(args)`: paths, `sandbox`, ...); a move names its
source and its destination. One call takes all of its resources at once, or waits without holding any,
so two calls can never wait for each other. Path locks are hierarchical: a lock on `/a` covers
everything under it, so it conflicts with one on `/a/b.txt` (deleting a folder never runs while a file
in it is written); other resources conflict only with themselves.

Reads of a resource overlap each other but never a write. Waiting is first come, first served among
conflicting claims: a read that arrives while a write waits queues behind it, so writes are never
starved by a stream of reads, and claims that do not conflict pass each other freely. Two chat tabs
running at once meet here, so one cannot change a file the other is in the middle of changing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass

Resources = str | Iterable[str] | None


@dataclass(eq=False)
class _Claim:
    """What one holder takes (or waits for): its resources, shared for reads."""

    resources: frozenset[str]
    shared: bool

    def conflicts(self, other: _Claim) -> bool:
        if self.shared and other.shared:
            return False
        return any(overlap(a, b) for a in self.resources for b in other.resources)


def overlap(a: str, b: str) -> bool:
    """Two resources are the same, or one path lies inside the other."""
    if a == b:
        return True
    if not (a.startswith("/") and b.startswith("/")):
        return False
    return _inside(a, b) or _inside(b, a)


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip("/") + "/")


def names(resources: Resources) -> frozenset[str]:
    if resources is None:
        return frozenset()
    if isinstance(resources, str):
        return frozenset({resources})
    return frozenset(str(r) for r in resources if r)


class ResourceLocks:
    def __init__(self) -> None:
        self._held: list[_Claim] = []
        self._waiting: list[tuple[_Claim, asyncio.Future[None]]] = []

    @property
    def held(self) -> list[frozenset[str]]:
        """The resources of every current holder (empty when nothing is locked)."""
        return [claim.resources for claim in self._held]

    def busy(self, resource: str) -> bool:
        """Whether a holder has this resource, or a path above or below it."""
        return any(overlap(resource, r) for claim in self._held for r in claim.resources)

    @contextlib.asynccontextmanager
    async def hold(self, resources: Resources, shared: bool = False) -> AsyncIterator[None]:
        """Hold `resources` (shared for reads, exclusive otherwise); none holds nothing."""
        claim = _Claim(names(resources), shared)
        if not claim.resources:
            yield
            return
        await self._acquire(claim)
        try:
            yield
        finally:
            self._release(claim)

    def _grantable(self, claim: _Claim, ahead: list[_Claim]) -> bool:
        return not any(claim.conflicts(other) for other in [*self._held, *ahead])

    async def _acquire(self, claim: _Claim) -> None:
        if self._grantable(claim, [waiting for waiting, _ in self._waiting]):
            self._held.append(claim)
            return
        entry = (claim, asyncio.get_running_loop().create_future())
        self._waiting.append(entry)
        try:
            await entry[1]
        except BaseException:  # cancelled while waiting, or just after it was granted
            if entry in self._waiting:
                self._waiting.remove(entry)
            elif claim in self._held:
                self._held.remove(claim)
            self._wake()  # claims queued behind this one may go on
            raise

    def _release(self, claim: _Claim) -> None:
        self._held.remove(claim)
        self._wake()

    def _wake(self) -> None:
        """Grant, in arrival order, each waiting claim that conflicts with no holder and no earlier waiter."""
        ahead: list[_Claim] = []
        for entry in list(self._waiting):
            claim, future = entry
            if future.done():
                continue  # cancelled: its task removes it when it resumes
            if self._grantable(claim, ahead):
                self._waiting.remove(entry)
                self._held.append(claim)
                future.set_result(None)
            else:
                ahead.append(claim)
