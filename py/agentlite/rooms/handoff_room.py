"""The hand-off room (`handoff.*`): the open project written as one hand-off file, a file's summary
before it is opened, and a file opened into this worker's project (docs/handoff-format.md). Bytes travel
to and from the page in base64, as the zip export's do."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from agentlite.handoff import (
    HandoffRefused,
    check_contents,
    collect_handoff,
    encode_handoff,
    open_handoff,
    read_handoff,
)
from agentlite.handoff.handoff_format import attachment_problem
from agentlite.workspace import Workspace
from agentlite.workspace.storage import StorageBackend


class HandoffRoom:
    def __init__(self, storage: StorageBackend | None, workspace: Workspace | None) -> None:
        self.storage = storage
        self.workspace = workspace

    async def save(
        self, name: str, attachments: dict[str, Any] | None, settings: dict[str, Any] | None
    ) -> dict[str, Any]:
        """`{data: base64 of the file, bytes, summary}`; the attachments' originals come as
        `{id: {type, data: base64}}`, the settings without the key (any key named like a secret is
        dropped here too)."""
        originals = {str(ident): _original(str(ident), item) for ident, item in (attachments or {}).items()}
        handoff = await collect_handoff(self._storage(), str(name), originals, dict(settings or {}))
        data = encode_handoff(handoff)
        return {"data": base64.b64encode(data).decode(), "bytes": len(data), "summary": handoff.summary()}

    async def inspect(self, data: str) -> dict[str, Any]:
        """The summary of a file, verified whole (an error answer with the refusal's message if not)."""
        handoff = read_handoff(_decoded(data))
        await check_contents(handoff)
        return handoff.summary()

    async def open(self, data: str) -> dict[str, Any]:
        """Open the file into this worker's (empty) project: `{summary, attachments: {id: {type, data}},
        settings}`. The files are reloaded here; the chats, memory and servers this worker holds in memory
        are stale after it: the page reloads."""
        handoff = read_handoff(_decoded(data))
        summary = await open_handoff(self._storage(), handoff)
        if self.workspace is not None:
            await self.workspace.refresh()
        attachments = {
            ident: {"type": mime, "data": base64.b64encode(raw).decode()}
            for ident, (mime, raw) in handoff.attachments.items()
        }
        return {"summary": summary, "attachments": attachments, "settings": handoff.settings}

    def _storage(self) -> StorageBackend:
        if self.storage is None:
            raise HandoffRefused("this worker has no storage to hold a project")
        return self.storage


def _decoded(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError, TypeError) as exc:
        raise HandoffRefused("this is not an AgentLite hand-off file (its bytes are not base64)") from exc


def _original(ident: str, item: Any) -> tuple[str, bytes]:
    mime = item.get("type") if isinstance(item, dict) else None
    problem = attachment_problem(ident, mime)
    if problem is None and isinstance(item, dict) and isinstance(item.get("data"), str):
        try:
            return str(mime), base64.b64decode(item["data"], validate=True)
        except (binascii.Error, ValueError) as exc:
            problem = f"the attachment {ident[:80]!r} is not base64 ({exc})"
    raise ValueError(problem or f"the attachment {ident[:80]!r} has no data")
