"""Long-term memory's room (`memory.*`): the user's view and edits of what the agent remembers.

A workspace without storage has no store: its list is empty, a delete does nothing, and an edit is
an error answer the page shows."""

from __future__ import annotations

from typing import Any

from agentlite.engine.memory import MemoryStore


class MemoryRoom:
    def __init__(self, store: MemoryStore | None) -> None:
        self.store = store

    async def all(self) -> list[dict[str, Any]]:
        return [] if self.store is None else await self.store.all()

    async def delete(self, memory_id: str) -> None:
        if self.store is not None:
            await self.store.delete(memory_id)

    async def update(self, memory_id: str, text: str | None, pinned: bool | None) -> dict[str, Any]:
        return (await self._store().update(memory_id, text=text, pinned=pinned)).view()

    async def add(self, text: str, pinned: bool) -> dict[str, Any]:
        return (await self._store().add(text, pinned=pinned, source="user")).view()

    def _store(self) -> MemoryStore:
        if self.store is None:
            raise ValueError("this workspace has no long-term memory store")
        return self.store
