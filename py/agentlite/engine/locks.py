"""Resource locks shared by every chat of a workspace (seed 003 point 5: a queue and locks per resource).

A tool names the resource it touches (`Tool.resource(args)`: a path, `sandbox`, ...). Calls on the same
resource are serialised; reads of one resource may overlap each other but never a write; calls on
different resources run freely. Two chat tabs running at once meet here, so one cannot overwrite a file
the other is in the middle of changing. Writers are preferred: a waiting write is not starved by reads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field


@dataclass
class _RwLock:
    readers: int = 0
    writing: bool = False
    waiting_writers: int = 0
    users: int = 0  # holders and waiters: the lock is dropped from the table only when nobody uses it
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)


class ResourceLocks:
    def __init__(self) -> None:
        self._locks: dict[str, _RwLock] = {}

    def busy(self, resource: str) -> bool:
        lock = self._locks.get(resource)
        return lock is not None and (lock.writing or lock.readers > 0)

    @contextlib.asynccontextmanager
    async def hold(self, resource: str | None, shared: bool = False) -> AsyncIterator[None]:
        """Hold `resource` (shared for reads, exclusive otherwise); `None` holds nothing."""
        if resource is None:
            yield
            return
        lock = self._locks.setdefault(resource, _RwLock())
        lock.users += 1
        try:
            await (self._acquire_shared(lock) if shared else self._acquire_exclusive(lock))
            try:
                yield
            finally:
                await self._release(lock, shared)
        finally:
            lock.users -= 1
            if not lock.users and self._locks.get(resource) is lock:
                del self._locks[resource]

    async def _acquire_shared(self, lock: _RwLock) -> None:
        async with lock.changed:
            await lock.changed.wait_for(lambda: not lock.writing and not lock.waiting_writers)
            lock.readers += 1

    async def _acquire_exclusive(self, lock: _RwLock) -> None:
        async with lock.changed:
            lock.waiting_writers += 1
            try:
                await lock.changed.wait_for(lambda: not lock.writing and not lock.readers)
            except BaseException:
                lock.waiting_writers -= 1
                lock.changed.notify_all()  # readers held back by this writer may go on
                raise
            lock.waiting_writers -= 1
            lock.writing = True

    async def _release(self, lock: _RwLock, shared: bool) -> None:
        async with lock.changed:
            if shared:
                lock.readers -= 1
            else:
                lock.writing = False
            lock.changed.notify_all()
