"""The agent service: page messages in, events and replies out (fakes for workspace and transport)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.demo import demo_transport
from agentlite.service import AgentService
from agentlite.settings import Settings


class FakeWorkspace:
    def __init__(self) -> None:
        self.files: dict[str, str] = {}

    async def read_text(self, path: str) -> str | None:
        return self.files.get(path)

    async def write_text(self, path: str, text: str, author: str = "user") -> None:
        self.files[path] = text

    async def list(self, path: str = "/", recursive: bool = False) -> list[dict[str, str]]:
        return [{"path": p, "kind": "file"} for p in sorted(self.files)]

    async def history(self, path: str) -> list[dict[str, Any]]:
        return [{"version": 1, "op": "create"}] if path in self.files else []


def make_service() -> tuple[AgentService, list[dict[str, Any]], list[Settings]]:
    posted: list[dict[str, Any]] = []
    seen: list[Settings] = []

    def transport_for(settings: Settings) -> Any:
        seen.append(settings)
        return demo_transport(delay=0)

    return AgentService(posted.append, FakeWorkspace(), transport_for), posted, seen


async def drain(service: AgentService) -> None:
    for _ in range(200):
        pending = [c.task for c in service.chats.values() if c.task is not None and not c.task.done()]
        pending += list(service.tasks)
        if not pending:
            return
        await asyncio.wait(pending)


def test_calls_are_answered_with_replies() -> None:
    service, posted, _ = make_service()

    async def scenario() -> None:
        service.handle(
            json.dumps(
                {"type": "call", "id": 1, "method": "vfs.writeText", "args": {"path": "/a", "text": "x"}}
            )
        )
        await drain(service)
        service.handle(
            json.dumps({"type": "call", "id": 2, "method": "vfs.readText", "args": {"path": "/a"}})
        )
        service.handle(json.dumps({"type": "call", "id": 3, "method": "nope", "args": {}}))
        await drain(service)

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m["type"] == "reply"}
    assert replies[1] == {"type": "reply", "id": 1, "ok": True, "value": None}
    assert replies[2]["value"] == "x"
    assert replies[3]["ok"] is False and "nope" in replies[3]["error"]


def test_send_runs_a_turn_with_the_current_settings() -> None:
    service, posted, seen = make_service()

    async def scenario() -> None:
        service.handle(json.dumps({"type": "settings", "settings": {"model": "demo", "dialect": "json"}}))
        service.handle(json.dumps({"type": "send", "chat": "chat-2", "text": "hello", "mode": "agent"}))
        await drain(service)

    asyncio.run(scenario())
    assert seen[0].dialect == "json"
    events = [m for m in posted if m["type"] == "event"]
    assert {m["chat"] for m in events} == {"chat-2"}
    kinds = [m["event"]["kind"] for m in events]
    assert "message_start" in kinds and kinds[-1] == "turn_end"
    assert "demo model" in "".join(m["event"].get("text", "") for m in events)
