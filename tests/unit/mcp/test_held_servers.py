"""A server that came in a hand-off file is held: the start connects every other server but sends it
nothing, until the user's Connect (`mcp.connect`), which connects it and keeps it connecting at later
starts."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from agentlite.engine.chats import SERVERS_KEY, STORE
from agentlite.mcp.seam import HttpRequest
from agentlite.mcp.servers import HELD
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.service import AgentService
from agentlite.workspace.storage import Batch, MemoryStorage
from tests.mcp_servers import RunningServer
from tests.unit.mcp.test_servers import call, settled


class Counting(UrllibTransport):
    """The real transport, counting what it sends."""

    sent: ClassVar[list[str]] = []

    async def send(self, request: HttpRequest) -> Any:
        Counting.sent.append(request.url)
        return await super().send(request)


async def held_storage(url: str) -> MemoryStorage:
    storage = MemoryStorage()
    batch = Batch()
    batch.put(STORE, SERVERS_KEY, json.dumps([{"url": url, "name": "From a file", "held": True}]))
    await storage.commit(batch)
    return storage


def service(storage: MemoryStorage) -> AgentService:
    return AgentService(
        lambda _message: None,
        None,  # type: ignore[arg-type]
        lambda _s: None,  # type: ignore[arg-type,return-value]
        storage=storage,
        mcp_transport=lambda: Counting(timeout=3),
    )


async def test_a_held_server_is_not_connected_until_the_user_connects_it(
    stateless_server: RunningServer,
) -> None:
    Counting.sent = []
    storage = await held_storage(stateless_server.url)
    svc = service(storage)
    [view] = await call(svc, "mcp.start")
    assert (view["state"], view["diagnosis"]) == ("held", HELD)
    assert (await call(svc, "mcp.list"))[0]["state"] == "held" and Counting.sent == []
    await call(svc, "mcp.connect", url=stateless_server.url)
    assert (await settled(svc, stateless_server.url))["state"] == "connected" and Counting.sent
    assert "held" not in json.loads(str(await storage.get(STORE, SERVERS_KEY)))[0]
    await call(svc, "mcp.remove", url=stateless_server.url)


async def test_the_held_mark_survives_a_restart_and_an_unrelated_change(
    stateless_server: RunningServer,
) -> None:
    storage = await held_storage(stateless_server.url)
    svc = service(storage)
    await call(svc, "mcp.start")
    await call(svc, "mcp.toggle", url=stateless_server.url, tool="mcp__x__y", enabled=False)
    again = service(storage)
    assert [v["state"] for v in await call(again, "mcp.start")] == ["held"]
