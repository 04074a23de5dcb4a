"""The agent service: takes worker-protocol messages from the page, runs chats, answers calls.

Every request of the page is a `CALL {method, args}` answered by one `REPLY`: `agentlite.calls` checks
it and hands it to the room that owns its group (`agentlite.rooms`: the workspace's files and transfers,
the chats, the settings and the model link, the editor's state, memory, skills, the connection test,
the remote servers). The service builds the engine and wires the rooms, once; it keeps nothing of
theirs, and nothing it wires calls back into it. The only other message the page sends is a sandbox
run's result.

Pure Python: the browser edge (`agentlite.browser.host`) gives it a `post` function, a workspace,
storage and a transport factory; tests give it fakes. Chats are `agentlite.engine` sessions.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.calls import CallHandler
from agentlite.engine import Engine
from agentlite.engine.session import ChatSession
from agentlite.page_jobs import PageJobClient
from agentlite.problems.problem_watch import ProblemWatch
from agentlite.protocol import Msg
from agentlite.rooms import Rooms
from agentlite.rooms.chat_room import ChatRoom
from agentlite.rooms.connection_room import ConnectionRoom
from agentlite.rooms.demo_room import DemoRoom
from agentlite.rooms.editor_room import EditorRoom
from agentlite.rooms.file_room import FileRoom
from agentlite.rooms.handoff_room import HandoffRoom
from agentlite.rooms.mcp_room import McpRoom
from agentlite.rooms.memory_room import MemoryRoom
from agentlite.rooms.settings_room import SettingsRoom, TransportFor
from agentlite.rooms.skills_room import SkillsRoom
from agentlite.rooms.stage_room import StageRoom
from agentlite.rooms.transfer_room import TransferRoom
from agentlite.rooms.worker_room import WorkerRoom
from agentlite.tools.context import ToolContext
from agentlite.transport import HttpTransport
from agentlite.workspace import Workspace
from agentlite.workspace.storage import StorageBackend

Post = Callable[[dict[str, Any]], None]
LoadPackages = Callable[[list[str]], Awaitable[None]]
log = logging.getLogger(__name__)


class AgentService:
    def __init__(
        self,
        post: Post,
        workspace: Workspace,
        transport_for: TransportFor,
        *,
        storage: StorageBackend | None = None,
        load_packages: LoadPackages | None = None,
        mcp_transport: Callable[[], HttpTransport] | None = None,
        deferred_tools: bool = False,
        problems: bool = False,
    ) -> None:
        self.post = post
        # Set once the tool modules (pydantic) can load: the worker loads them after `ready` and calls
        # `packages_loaded()`; until then no remote tool joins the registry.
        self.tools_ready = asyncio.Event()
        if not deferred_tools:
            self.tools_ready.set()
        self._load_packages = load_packages
        self.workspace = workspace
        self.sandbox = PageJobClient(post)
        # the page's checkers, kept warm across turns; only a page has them (the tests' fakes do not)
        self.problems = ProblemWatch(self.sandbox) if problems else None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.engine = Engine(
            None, workspace, sandbox=self.sandbox, storage=storage, context_factory=self._tool_context
        )
        self.chats: dict[str, ChatSession] = self.engine.sessions
        self.rooms = self._wire(transport_for, storage, mcp_transport)
        self.calls = CallHandler(self.rooms)

    def _wire(
        self,
        transport_for: TransportFor,
        storage: StorageBackend | None,
        mcp_transport: Callable[[], HttpTransport] | None,
    ) -> Rooms:
        """The rooms, each given what it owns or reads; none reaches back here."""
        engine, workspace = self.engine, self.workspace
        settings = SettingsRoom(engine, transport_for, self.spawn)
        editor = EditorRoom()
        return Rooms(
            files=FileRoom(workspace, engine.locks),
            transfers=TransferRoom(workspace, engine.sessions, self.load_packages),
            chats=ChatRoom(engine, workspace, settings, editor, self.post),
            memory=MemoryRoom(engine.memory),
            skills=SkillsRoom(workspace),
            connection=ConnectionRoom(settings, engine.dialects),
            demo=DemoRoom(),
            settings=settings,
            editor=editor,
            worker=WorkerRoom(),
            mcp=McpRoom(engine, storage, self.post, self.tools_ready, mcp_transport),
            handoff=HandoffRoom(storage, workspace),
            stage=StageRoom(workspace, engine.stages),
        )

    def handle(self, raw: str) -> None:
        """Entry point for every message from the page (a JSON string): calls, and sandbox answers."""
        message = json.loads(raw)
        kind = message.get("type")
        if kind == Msg.CALL:
            self.spawn(self._answer(message.get("id"), str(message.get("method")), message.get("args") or {}))
        elif kind == Msg.PAGE_JOB_RESULT:
            self.sandbox.deliver(message)
        else:
            log.warning("unknown message type %r", kind)

    async def load_packages(self, names: list[str]) -> None:
        """Makes wheels of the build importable that the start-up does not load (dulwich); on CPython
        they are installed already."""
        if self._load_packages is not None:
            await self._load_packages(names)

    def packages_loaded(self) -> None:
        """The worker's deferred packages are in (docs/startup.md): the registry may be built now."""
        self.tools_ready.set()

    def _tool_context(self, turn_id: str, open_file: str | None, save_summary: Callable[[Any], None]) -> Any:
        """The tools' context for one turn, with the limits the page set (the eval timeout). Its open
        file is the editor room's, the one holder the turn's message wrote too, and follows it from
        there (`open_file`, the message's copy, is stale when the turn waited behind another)."""
        if self.workspace is None:
            return None
        context = ToolContext(
            self.workspace,
            turn_id,
            sandbox=self.sandbox,
            save_summary=save_summary,
            settings=self.rooms.settings.tools,
            problems=self.problems,
        )
        return self.rooms.editor.follow(turn_id, context)

    def chat(self, chat_id: str) -> ChatSession:
        return self.rooms.chats.chat(chat_id)

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _answer(self, call_id: Any, method: str, args: dict[str, Any]) -> None:
        try:
            value = await self.calls.dispatch(method, args)
        except Exception as exc:  # every failure becomes an answer; the page decides what to show
            self.post({"type": Msg.REPLY.value, "id": call_id, "ok": False, "error": str(exc)})
        else:
            self.post({"type": Msg.REPLY.value, "id": call_id, "ok": True, "value": value})
