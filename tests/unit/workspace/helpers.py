"""Shared helpers for the workspace tests: run coroutines, open workspaces, snapshot their state."""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from hypothesis import settings

from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.workspace.conftest import SELECTED, SELECTED_MACHINE

PROFILE = settings.get_profile(SELECTED)
MACHINE_PROFILE = settings.get_profile(SELECTED_MACHINE)
T = TypeVar("T")


class YieldingStorage(MemoryStorage):
    """MemoryStorage whose every call lets other tasks run first, as IndexedDB's do."""

    async def get(self, store: str, key: str) -> Any:
        await asyncio.sleep(0)
        return await super().get(store, key)

    async def scan(self, store: str, start: str | None = None, stop: str | None = None) -> Any:
        await asyncio.sleep(0)
        return await super().scan(store, start, stop)

    async def commit(self, batch: Any) -> None:
        await asyncio.sleep(0)
        await super().commit(batch)


def aio(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test function on a fresh event loop (pytest sees the original signature)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._ticks = itertools.count()
        self.start = start

    def __call__(self) -> float:
        return self.start + next(self._ticks)


async def open_workspace(storage: MemoryStorage | None = None, **options: Any) -> Workspace:
    options.setdefault("clock", FakeClock())
    return await Workspace.open(storage if storage is not None else MemoryStorage(), **options)


async def snapshot(ws: Workspace) -> dict[str, str | None]:
    """path -> text for files, None for folders."""
    state: dict[str, str | None] = {}
    for item in await ws.list("/", recursive=True):
        state[item["path"]] = await ws.read_text(item["path"]) if item["kind"] == "file" else None
    return state
