"""Chat tabs persisted through the StorageBackend, so a reload brings every tab back as it was.

Store `chats` (beside the workspace's stores; the memory has its own store `memory`):
- `chat:<id>` → one chat as JSON: title, settings, messages, compaction memo, plan, turn counter;
- `tabs`      → `{"order": [chat ids], "active": chat id}`;
- `mcp_servers` → the workspace's remote MCP servers (agentlite.mcp.server_book), never a file.
A chat is written at the end of each turn and when its settings change, in one put (atomic).
"""

from __future__ import annotations

import json
from typing import Any

from agentlite.workspace.storage import Batch, StorageBackend

STORE = "chats"
TABS = "tabs"
PREFIX = "chat:"
SERVERS_KEY = "mcp_servers"
KEEP_ARGUMENT = 64_000  # characters of one tool-call argument kept in a saved chat


class ChatStore:
    def __init__(self, storage: StorageBackend) -> None:
        self.storage = storage

    async def save(self, record: dict[str, Any]) -> None:
        batch = Batch()
        batch.put(STORE, PREFIX + str(record["id"]), json.dumps(slim(record), ensure_ascii=False))
        await self.storage.commit(batch)

    async def delete(self, chat_id: str) -> None:
        batch = Batch()
        batch.delete(STORE, PREFIX + chat_id)
        await self.storage.commit(batch)

    async def save_tabs(self, order: list[str], active: str | None) -> None:
        batch = Batch()
        batch.put(STORE, TABS, json.dumps({"order": order, "active": active}))
        await self.storage.commit(batch)

    async def load(self) -> tuple[list[dict[str, Any]], str | None]:
        """Every stored chat in tab order (chats missing from the order last, oldest first), and the
        active tab."""
        records: dict[str, dict[str, Any]] = {}
        for key, value in await self.storage.scan(STORE, PREFIX, PREFIX + "\uffff"):
            try:
                record = json.loads(value)
            except ValueError:
                continue  # a damaged record must not keep the other tabs from loading
            records[key[len(PREFIX) :]] = record
        tabs = await self.storage.get(STORE, TABS)
        layout = json.loads(tabs) if isinstance(tabs, str) else {}
        order = [c for c in layout.get("order") or () if c in records]
        rest = sorted((c for c in records if c not in order), key=lambda c: records[c].get("created") or 0)
        active = layout.get("active") if layout.get("active") in records else None
        return [records[c] for c in order + rest], active


def slim(record: dict[str, Any]) -> dict[str, Any]:
    """The record with very long tool-call arguments cut short.

    A file the model wrote lives in the workspace already; keeping a second copy in the chat would
    double what a big write costs in storage (and fail the chat save when the quota is tight)."""
    messages = []
    for message in record.get("messages") or ():
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        if calls:
            message = {**message, "tool_calls": [_slim_call(call) for call in calls]}
        messages.append(message)
    return {**record, "messages": messages}


def _slim_call(call: dict[str, Any]) -> dict[str, Any]:
    arguments = call.get("arguments")
    if not isinstance(arguments, dict):
        return call
    kept = {}
    for key, value in arguments.items():
        if isinstance(value, str) and len(value) > KEEP_ARGUMENT:
            value = f"{value[:2000]}\n[{len(value) - 2000:,} more characters not kept in the saved chat]"
        kept[key] = value
    return {**call, "arguments": kept}
