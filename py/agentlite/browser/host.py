"""The worker's Python entry point: builds the agent service on the browser's platform pieces.

worker.js calls `start(post)` in its "agent" phase and then hands every page message to
`service.handle(json_string)`; the service answers through `post(json_string)`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agentlite.browser.fetch_transport import FetchTransport
from agentlite.browser.idb_storage import IndexedDBStorage
from agentlite.demo import demo_transport
from agentlite.service import AgentService
from agentlite.settings import Settings
from agentlite.transport import ModelTransport
from agentlite.workspace import Workspace


def transport_for(settings: Settings) -> ModelTransport:
    return demo_transport() if settings.is_demo else FetchTransport()


async def start(post_json: Callable[[str], Any]) -> AgentService:
    storage = await IndexedDBStorage.open()
    workspace = await Workspace.open(storage)

    def post(message: dict[str, Any]) -> None:
        post_json(json.dumps(message))

    service = AgentService(post, workspace, transport_for, storage=storage)
    workspace.add_listener(lambda change: post({"type": "change", "change": change}))
    return service
