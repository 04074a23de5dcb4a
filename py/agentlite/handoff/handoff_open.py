"""Opening a verified hand-off into a project's storage: all of it in ONE batch, or nothing.

The project must be empty: no file, no history, no memory, no server, no chat with a message (a project
the app has just started holds only empty chat tabs and their order; those are replaced). The contents
are checked within the per-file limit, then the whole batch is staged in a `MemoryStorage` and the
workspace opened there must check sound (`Workspace.check`) before the one real commit, which clears
every store first, under the storage's lock and guarded against a write from another tab. Every MCP
server in it is written `held`: it does not connect until the user says so (mcp.servers).
"""

from __future__ import annotations

import bisect
import json
from typing import Any

from agentlite.engine.chats import PREFIX as CHAT_PREFIX
from agentlite.engine.chats import SERVERS_KEY, TABS
from agentlite.handoff.handoff_contents import Handoff
from agentlite.handoff.handoff_format import HandoffRefused
from agentlite.handoff.handoff_records import check_contents
from agentlite.workspace import Workspace
from agentlite.workspace.storage import STORES, WORKSPACE_STORES, Batch, MemoryStorage, StorageBackend, Value
from agentlite.workspace.workspace_errors import WorkspaceError

NOT_EMPTY = "this project is not empty ({}); a hand-off file opens only as a new project; nothing was opened"


async def open_handoff(storage: StorageBackend, handoff: Handoff) -> dict[str, Any]:
    """Write the hand-off into `storage` (an empty project's); its summary."""
    await check_contents(handoff)
    batch = handoff_batch(handoff)
    await _staged_check(batch)
    async with storage.lock():
        batch.guard = ("meta", "state", await storage.get("meta", "state"))
        await _refuse_unless_empty(storage)
        try:
            await storage.commit(batch)
        except WorkspaceError as exc:
            raise HandoffRefused(f"the project could not be stored ({exc}); nothing was opened") from exc
    return handoff.summary()


def handoff_batch(handoff: Handoff) -> Batch:
    """Every store cleared, then every record of the hand-off put as it is (the server book held)."""
    batch = Batch()
    for store in STORES:
        batch.clear(store)
        for key, value in handoff.rows(store):
            if store == "chats" and key == SERVERS_KEY:
                value = held_book(str(value))
            batch.put(store, key, value)
    return batch


def held_book(raw: str) -> str:
    """The server book with every server marked `held`."""
    items = json.loads(raw)
    return json.dumps([{**item, "held": True} for item in items])


async def _staged_check(batch: Batch) -> None:
    """Apply the batch to a scratch storage and check the workspace it makes there."""
    scratch = _Staging()
    await scratch.commit(batch)
    try:
        workspace = await Workspace.open(scratch)
        found = await workspace.check(contents=False)  # check_contents verified every blob
    except WorkspaceError as exc:
        found = [str(exc)]
    if found:
        raise HandoffRefused(
            f"the project's workspace is not consistent: {'; '.join(found[:5])}; nothing was opened"
        )


class _Staging(MemoryStorage):
    """A scratch storage whose scans read each store's keys sorted once, not once a scan (the check
    scans every entry's versions: 1,000 sorts of 10,000 keys otherwise)."""

    def __init__(self) -> None:
        super().__init__()
        self.sorted: dict[str, list[str]] = {}

    async def commit(self, batch: Batch) -> None:
        self.sorted.clear()
        await super().commit(batch)

    async def scan(
        self, store: str, start: str | None = None, stop: str | None = None
    ) -> list[tuple[str, Value]]:
        data = self.data[store]
        if store not in self.sorted:
            self.sorted[store] = sorted(data)
        keys = self.sorted[store]
        low = 0 if start is None else bisect.bisect_left(keys, start)
        high = len(keys) if stop is None else bisect.bisect_left(keys, stop)
        return [(key, data[key]) for key in keys[low:high]]


async def _refuse_unless_empty(storage: StorageBackend) -> None:
    """HandoffRefused naming what the project holds, unless it holds only what a fresh start leaves."""
    stored = [store for store in WORKSPACE_STORES if store != "meta" and await storage.keys(store)]
    held = ["files or history"] if stored else []
    state = _loads(await storage.get("meta", "state"))
    if state is None or (isinstance(state, dict) and state.get("commit")):
        held.append("history")
    if await storage.keys("memory"):
        held.append("memory")
    for key, value in await storage.scan("chats"):
        data = _loads(value)
        if key == SERVERS_KEY and data != []:
            held.append("MCP servers")
        elif key.startswith(CHAT_PREFIX) and (not isinstance(data, dict) or data.get("messages")):
            held.append("chats with messages")
        elif key not in (TABS, SERVERS_KEY) and not key.startswith(CHAT_PREFIX):
            held.append(f"chat record {key}")
    if held:
        raise HandoffRefused(NOT_EMPTY.format(", ".join(dict.fromkeys(held))))


def _loads(value: str | bytes | None) -> Any:
    """The JSON in a stored value; {} when absent, None when damaged (a damaged value is not empty)."""
    if value is None:
        return {}
    try:
        return json.loads(value)
    except ValueError:
        return None
