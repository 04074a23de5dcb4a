"""The engine: what every chat of a workspace shares, and the chats themselves.

One `Engine` per workspace holds the tool registry, the workspace and sandbox the tools work on, the
resource locks two running chats meet at, the long-term memory, the chat store, the `auto` dialect
memory, and the injected clock, sleep and random source (tests pass instant ones). `chat(id, emit)`
gives the page's handle on one tab; `restore()` brings back the persisted tabs after a reload.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.engine.approvals import Peek
from agentlite.engine.chat_events import Notice, Post, StageChanged
from agentlite.engine.chats import ChatStore
from agentlite.engine.dialect import DialectChooser
from agentlite.engine.locks import ResourceLocks
from agentlite.engine.memory import Embedder, MemoryStore
from agentlite.engine.model_link import ModelLink
from agentlite.engine.server_counts import ServerCounts
from agentlite.engine.session import ChatSession, PageLimits
from agentlite.engine.strategy import Backoff
from agentlite.engine.turn_deps import SharedDeps, ToolContextFactory, nothing_to_read
from agentlite.stage.stage_book import StageBook
from agentlite.tools.catalog import default_registry
from agentlite.tools.context import SandboxRunner, ToolContext
from agentlite.tools.registry import ToolRegistry
from agentlite.workspace import Workspace
from agentlite.workspace.storage import StorageBackend

log = logging.getLogger(__name__)
ContextFactory = ToolContextFactory


class Engine:
    def __init__(
        self,
        registry: ToolRegistry | None = None,
        workspace: Workspace | None = None,
        *,
        sandbox: SandboxRunner | None = None,
        storage: StorageBackend | None = None,
        embedder: Embedder | None = None,
        context_factory: ContextFactory | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        backoff: Backoff | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.workspace = workspace
        self.sandbox = sandbox
        self.storage = storage
        self.locks = ResourceLocks()
        self.dialects = DialectChooser()
        self.server_counts = ServerCounts()  # what context refusals stated, per endpoint + model
        self.memory = MemoryStore(storage, embedder) if storage is not None else None
        self.store = ChatStore(storage) if storage is not None else None
        self.context_factory = context_factory
        self.sleep = sleep
        self.backoff = backoff or Backoff()
        self.clock = clock
        self.sessions: dict[str, ChatSession] = {}
        self._restored = asyncio.Event()  # cleared while `restore` reads the saved chats
        self._restored.set()
        # each chat's stage, where its turns write when changes land for review (agentlite.stage)
        self.stages = StageBook(workspace, self._stage_changed) if isinstance(workspace, Workspace) else None
        self.endpoint: ModelLink | None = None  # the link the page set last
        self.limits = PageLimits()  # what the page's settings set for every chat
        self._save_failed = False
        # the remote tools the user allowed in every chat (set by the servers, agentlite.mcp.servers)
        self.allowed_remote: Callable[[], set[str]] = set
        self.fit_remote: Callable[[int], None] = lambda _window: None  # likewise: their tools to a window
        self.reread_remote: Callable[[], Awaitable[None]] = nothing_to_read  # the lists they said changed
        self.shared = self._shared()

    def _shared(self) -> SharedDeps:
        """What the chats share. `exists`, `sleep` and `endpoint` are read when used: the page sets a
        new endpoint at any time, and tests replace `exists` and `sleep` on a built engine."""
        return SharedDeps(
            registry=self.registry,
            workspace=self.workspace,
            memory=self.memory,
            dialects=self.dialects,
            server_counts=self.server_counts,
            locks=self.locks,
            exists=Peek(lambda path: self.exists(path), self.read_text, self.files_below),
            tool_context=self.tool_context,
            on_stage=self.on_stage,
            endpoint=lambda: self.endpoint,
            sleep=lambda seconds: self.sleep(seconds),
            backoff=self.backoff,
            clock=self.clock,
            allowed=lambda: self.allowed_remote(),
            fit_remote=lambda window: self.fit_remote(window),
            reread_remote=lambda: self.reread_remote(),
            restored=self._until_restored,
        )

    def endpoint_changed(self, link: ModelLink) -> None:
        """The page saved new endpoint settings. A turn waiting on a decision goes on with them, so a key
        entered after an auth error is the key its retry sends."""
        self.endpoint = link

    def limits_changed(self, limits: PageLimits) -> None:
        """The page's limits for every chat: each chat keeps them in its settings from now on."""
        self.limits = limits
        if self.stages is not None:
            self.stages.set_changes(limits.changes)
        for session in self.sessions.values():
            session.settings.adopt(limits)

    def chat(self, chat_id: str, emit: Post) -> ChatSession:
        """The chat with this id (created on first use, with the page's limits)."""
        if chat_id not in self.sessions:
            session = ChatSession(self.shared, chat_id, emit, self.save_chat)
            session.settings.adopt(self.limits)
            self.sessions[chat_id] = session
        return self.sessions[chat_id]

    async def _until_restored(self) -> None:
        await self._restored.wait()

    async def restore(self, emit_for: Callable[[str], Post]) -> dict[str, Any]:
        """Load the persisted tabs: `{"chats": [snapshot, ...], "active": id}` for the page. Turns sent
        meanwhile wait (`SharedDeps.restored`): the history they add to is the saved one."""
        self._restored.clear()
        try:
            return await self._load_chats(emit_for)
        finally:
            self._restored.set()

    async def _load_chats(self, emit_for: Callable[[str], Post]) -> dict[str, Any]:
        if self.stages is not None:
            try:
                await self.stages.load()
            except Exception:  # no stage store yet: every chat starts with an empty stage
                log.exception("could not load the stages")
        if self.store is None:
            return {"chats": [], "active": None}
        try:
            records, active = await self.store.load()
        except Exception:  # no chats store yet (older database): start with no saved tabs
            log.exception("could not load the saved chats")
            return {"chats": [], "active": None}
        for record in records:
            chat_id = str(record["id"])
            session = self.sessions.get(chat_id) or ChatSession(
                self.shared, chat_id, emit_for(chat_id), self.save_chat
            )
            if not session.in_turn:  # a running turn's history is newer than any saved record of it
                session.load_record(record)
            session.settings.adopt(self.limits)
            self.sessions[chat_id] = session
        return {"chats": [self.sessions[str(r["id"])].snapshot() for r in records], "active": active}

    async def save_chat(self, session: ChatSession) -> None:
        if self.store is None:
            return
        async with session.saving:
            if session.closed:
                return  # a closed tab stays deleted
            try:
                await self.store.save(session.to_record())
            except Exception:  # storage full or closed: the chat goes on in memory; the page hears once
                log.exception("could not save chat %s", session.id)
                if not self._save_failed:
                    self._save_failed = True
                    session.emit(Notice(level="warning", message="Chats could not be saved."))
                return
        self._save_failed = False

    async def save_tabs(self, order: list[str], active: str | None) -> None:
        if self.store is not None:
            await self.store.save_tabs(order, active)

    async def close_chat(self, chat_id: str) -> None:
        """Close a tab: stop its turn and forget it (its workspace changes stay in the history). From now
        on the chat sends no event and is never saved again; a save under way finishes before the
        delete, so the deleted chat cannot come back."""
        session = self.sessions.pop(chat_id, None)
        if self.stages is not None:
            self.stages.forget(chat_id)
        if session is not None:
            session.close()
        if self.store is None:
            return
        if session is None:
            await self.store.delete(chat_id)
            return
        async with session.saving:
            await self.store.delete(chat_id)

    def tool_context(self, turn_id: str, open_file: str | None, save_summary: Callable[[Any], None]) -> Any:
        """What tools receive for one turn: a ToolContext on the workspace, or the factory's object."""
        if self.context_factory is not None:
            return self.context_factory(turn_id, open_file, save_summary)
        if self.workspace is None:
            return None
        return ToolContext(
            self.workspace, turn_id, sandbox=self.sandbox, save_summary=save_summary, editor_path=open_file
        )

    def on_stage(self, chat_id: str, mode: str, context: Any) -> Any:
        """The turn's tool context moved onto the chat's stage when its changes land for review: every
        tool of the turn then reads and writes what the stage shows (agentlite.stage)."""
        if (
            self.stages is None
            or not isinstance(context, ToolContext)
            or not self.stages.staged(chat_id, mode)
        ):
            return context
        context.workspace = self.stages.stage(chat_id).workspace()
        context.stage = chat_id
        return context

    def _stage_changed(self, chat_id: str, pending: int, turn: str | None) -> None:
        session = self.sessions.get(chat_id)
        if session is not None:
            session.emit(StageChanged(pending=pending, turn=turn))

    async def exists(self, path: str) -> bool:
        if self.workspace is None:
            return False
        try:
            return bool(await self.workspace.exists(path))
        except Exception:  # an invalid path does not exist
            return False

    async def read_text(self, path: str) -> str | None:
        """A file's text for the approval rules; None when absent, a folder, binary or invalid."""
        if self.workspace is None:
            return None
        try:
            return await self.workspace.read_text(path)
        except Exception:  # not a readable text file: the rules treat it as unknown
            return None

    async def files_below(self, path: str) -> list[str]:
        """The files and folders below a folder, for the approval rules; [] for a file or nothing."""
        if self.workspace is None:
            return []
        try:
            return [entry["path"] for entry in await self.workspace.list(path, recursive=True)]
        except Exception:  # not a folder, or an invalid path
            return []
