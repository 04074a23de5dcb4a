"""The worker's Python entry point: builds the agent service on the browser's platform pieces.

worker.js calls `start(post)` in its "agent" phase and then hands every page message to
`service.handle(json_string)`; the service answers through `post(json_string)`.

Several tabs share one workspace: each stored change is announced to the other tabs, which reload
theirs and tell their page (a "reload" change); when a newer version of the app upgrades the database
in another tab, this tab's connection closes and the page is told to reload (a "closed" change).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agentlite.browser.fetch_transport import MCP_HEADERS, FetchTransport, LocalTransport
from agentlite.browser.idb_storage import IndexedDBStorage
from agentlite.browser.packages import load_packages
from agentlite.demo import demo_transport
from agentlite.service import AgentService
from agentlite.settings import Settings
from agentlite.transport import HttpTransport
from agentlite.workspace import Workspace

# The changes other tabs must reload for: every stored change the workspace notifies. Never "reload"
# (this tab reloading after another tab's change): announcing it would echo between the tabs.
ANNOUNCED = ("commit", "clear", "import")
CLOSED_REASONS = ("versionchange", "closed")
CLOSED_MESSAGE = (
    "A newer version of AgentLite opened its storage in another tab, so this tab stopped using it. "
    "Reload this page to keep working; nothing saved was lost."
)


def transport_for(settings: Settings) -> HttpTransport:
    if settings.is_demo:
        return demo_transport()
    return LocalTransport() if settings.is_local else FetchTransport()


async def start(post_json: Callable[[str], Any]) -> AgentService:
    def post(message: dict[str, Any]) -> None:
        post_json(json.dumps(message))

    def connection_closed(detail: dict[str, Any]) -> None:
        if detail.get("reason") in CLOSED_REASONS:
            change = {"type": "closed", "reason": detail["reason"], "message": CLOSED_MESSAGE}
            post({"type": "change", "change": change})

    storage = await IndexedDBStorage.open(on_version_change=connection_closed)
    workspace = await Workspace.open(storage)
    service = AgentService(
        post,
        workspace,
        transport_for,
        storage=storage,
        load_packages=load_packages,
        mcp_transport=lambda: FetchTransport(keep=MCP_HEADERS),
        deferred_tools=True,  # worker.js calls `service.packages_loaded()` once pydantic is in
        problems=True,  # the page answers `problems` jobs with its checkers (docs/problems.md)
    )
    workspace.add_listener(lambda change: post({"type": "change", "change": change}))
    workspace.add_listener(lambda change: _announce(storage, change))
    storage.on_announce(lambda detail: _heard(service, workspace, detail))
    stages = service.engine.stages
    if stages is not None:
        stages.announce_elsewhere = lambda chat: storage.announce({"type": "stage", "chat": chat})
    return service


def _heard(service: AgentService, workspace: Workspace, detail: dict[str, Any]) -> None:
    """Another tab's change: the workspace is read again, or a chat's stage (agentlite.stage)."""
    stages = service.engine.stages
    if detail.get("type") == "stage" and stages is not None:
        stages.heard(str(detail.get("chat")))
    else:
        service.spawn(workspace.refresh())


def _announce(storage: IndexedDBStorage, change: dict[str, Any]) -> None:
    if change.get("type") in ANNOUNCED:
        storage.announce({"type": change["type"], "commit": change.get("commit")})
