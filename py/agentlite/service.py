"""The agent service: takes worker-protocol messages from the page, runs chats, answers calls.

Every request of the page is a `CALL {method, args}` answered by one `REPLY` (`agentlite.calls`
names them): the workspace, the chats' commands (send, stop, approve, decide, ...), the settings (one
call: endpoint, limits) and the editor's state. The only other message the page sends is a sandbox
run's result.

Pure Python: the browser edge (`agentlite.browser.host`) gives it a `post` function, a workspace,
storage and a transport factory; tests give it fakes. Chats are `agentlite.engine` sessions.

With each endpoint the page sets, the service learns what the endpoint offers: the selected model's
context window from its `/models` listing (read once per base URL + model, in the background), and
long-term memory's embedder when an `embedding_model` is set. The window a turn uses is the user's
(a non-zero `context_window` in the settings), else the listing's, else the engine's
default. The service keeps one `ModelLink` (endpoint, model, dialect, window) from the page's settings
and the window it knows, made again when either changes, and hands it to each turn with the message's
typed options (`agentlite.commands.SendMessage`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from agentlite import connection
from agentlite.calls import CallHandler
from agentlite.commands import PageSettings, SendMessage
from agentlite.editor_state import EditorState
from agentlite.endpoint import Endpoint
from agentlite.engine import Engine
from agentlite.engine.budget import DEFAULT_WINDOW
from agentlite.engine.chats import SERVERS_KEY
from agentlite.engine.chats import STORE as APP_STORE
from agentlite.engine.memory import EndpointEmbedder
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import ChatSession
from agentlite.protocol import Msg
from agentlite.sandbox import SandboxClient
from agentlite.settings import Settings
from agentlite.tools.context import ToolContext, ToolSettings
from agentlite.transport import ModelTransport
from agentlite.workspace import Workspace
from agentlite.workspace.storage import StorageBackend

if TYPE_CHECKING:  # loaded only when the workspace has a remote server (docs/mcp.md)
    from agentlite.mcp.servers import McpServers
    from agentlite.mcp.sign_ins import ServerSignIns

Post = Callable[[dict[str, Any]], None]
TransportFor = Callable[[Settings], ModelTransport]
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
        mcp_transport: Callable[[], ModelTransport] | None = None,
        deferred_tools: bool = False,
    ) -> None:
        self.post = post
        self.storage = storage
        self.mcp_transport = mcp_transport  # the remote servers' HTTP (None: the standard library's)
        self._servers: McpServers | None = None
        self._sign_ins: ServerSignIns | None = None
        # Set once the tool modules (pydantic) can load: the worker loads them after `ready` and calls
        # `packages_loaded()`; until then no remote tool joins the registry.
        self.tools_ready = asyncio.Event()
        if not deferred_tools:
            self.tools_ready.set()
        self._load_packages = load_packages
        self.workspace = workspace
        self.transport_for = transport_for
        self.settings = Settings()
        self.sandbox = SandboxClient(post)
        self.tool_settings = ToolSettings()
        self.engine = Engine(
            None, workspace, sandbox=self.sandbox, storage=storage, context_factory=self._tool_context
        )
        self.chats: dict[str, ChatSession] = self.engine.sessions
        self.link: ModelLink | None = None  # what turns talk to (None: no settings yet, the demo model)
        self.editor = EditorState()  # what the page's editor shows, as last reported
        # the tools' contexts of live turns, by turn id (a finished turn's goes with it)
        self.contexts: weakref.WeakValueDictionary[str, ToolContext] = weakref.WeakValueDictionary()
        self.calls = CallHandler(self)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.windows: dict[tuple[str, str], int | None] = {}  # (base URL, model) -> window; None: asking

    def handle(self, raw: str) -> None:
        """Entry point for every message from the page (a JSON string): calls, and sandbox answers."""
        message = json.loads(raw)
        kind = message.get("type")
        if kind == Msg.CALL:
            self.spawn(self._answer(message.get("id"), str(message.get("method")), message.get("args") or {}))
        elif kind == Msg.SANDBOX_RESULT:
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

    async def has_servers(self) -> bool:
        """Whether the workspace keeps remote servers, read without loading their package."""
        return self.storage is not None and bool(await self.storage.get(APP_STORE, SERVERS_KEY))

    async def servers(self) -> McpServers:
        """The remote servers (agentlite.mcp), loaded on first use: their tools join the engine's registry
        and what the user allowed joins every chat's approvals."""
        if self._servers is None:
            from agentlite.mcp.server_book import ServerBook
            from agentlite.mcp.servers import McpServers

            transport = self.mcp_transport
            if transport is None:
                from agentlite.mcp.urllib_transport import UrllibTransport

                transport = UrllibTransport
            book = await ServerBook.load(self.storage)
            if self._servers is None:
                self._servers = McpServers(
                    book, self.engine.registry, transport, self.post, ready=self.tools_ready
                )
                self.engine.allowed_remote = self._servers.allowed
        return self._servers

    async def sign_ins(self) -> ServerSignIns:
        """OAuth sign-in to the remote servers (agentlite.mcp.sign_ins), made on first use."""
        servers = await self.servers()
        if self._sign_ins is None:
            from agentlite.mcp.sign_ins import ServerSignIns

            self._sign_ins = ServerSignIns(servers, servers.transport)
        return self._sign_ins

    def endpoint_for(self, settings: Settings) -> Endpoint:
        """The endpoint `settings` name, on a transport of its own (the demo model's or the network)."""
        return Endpoint.of(settings, self.transport_for(settings))

    def apply_settings(self, page: PageSettings) -> None:
        """The page's settings: the endpoint, the chats' limits, the tools' limits."""
        self.settings = settings = page.settings
        self.tool_settings = page.tools
        self.engine.limits_changed(page.limits)
        self._link_to(ModelLink.of(settings, self.transport_for(settings), self.context_window()))
        if self.engine.memory is not None:
            self.engine.memory.use_embedder(self._embedder(settings))
        key = (settings.base_url, settings.model)
        if not settings.is_demo and key not in self.windows:
            self.windows[key] = None
            self.spawn(self._read_window(settings))

    def start_turn(self, send: SendMessage) -> None:
        """A message of the user: a turn of the chat on the current link (the chat has its limits)."""
        link = self.link
        if link is None:  # no settings applied yet: the defaults (the demo model)
            link = self._link_to(ModelLink.of(self.settings, self.transport_for(self.settings)))
        self.chat(send.chat_id).start_turn(send.text, link, send.options)

    def _link_to(self, link: ModelLink) -> ModelLink:
        self.link = link
        self.engine.endpoint_changed(link)
        return link

    def editor_changed(self, editor: EditorState) -> None:
        """Another file opened or a new selection: running turns' tools see the file now open."""
        self.editor = editor
        for context in list(self.contexts.values()):
            context.editor_path = editor.open_file

    def context_window(self) -> int:
        """The window for a turn: the user's (in the settings), the model's, the default."""
        settings = self.settings
        return (
            settings.context_window or self.windows.get((settings.base_url, settings.model)) or DEFAULT_WINDOW
        )

    def learn_window(self, base_url: str, model: str, size: int | None) -> None:
        """Record a model's window from a listing (the connection test reads one too); the link's
        window follows when it is the current model's."""
        if size:
            self.windows[(base_url, model)] = size
        link = self.link
        if link is not None and link.key == (base_url, model) and link.window != self.context_window():
            self._link_to(replace(link, window=self.context_window()))

    async def _read_window(self, settings: Settings) -> None:
        size = await connection.model_window(self.endpoint_for(settings), settings.model)
        if size is None:  # unknown, or the endpoint did not answer: ask again with the next settings
            self.windows.pop((settings.base_url, settings.model), None)
        self.learn_window(settings.base_url, settings.model, size)

    def _embedder(self, settings: Settings) -> EndpointEmbedder | None:
        if settings.is_demo or not settings.embedding_model:
            return None
        return EndpointEmbedder(self.endpoint_for(settings), settings.embedding_model)

    def _tool_context(self, turn_id: str, open_file: str | None, save_summary: Callable[[Any], None]) -> Any:
        """The tools' context for one turn, with the limits the page set (the eval timeout)."""
        if self.workspace is None:
            return None
        context = ToolContext(
            self.workspace,
            turn_id,
            sandbox=self.sandbox,
            save_summary=save_summary,
            editor_path=open_file,
            settings=self.tool_settings,
        )
        self.contexts[turn_id] = context
        return context

    def chat(self, chat_id: str) -> ChatSession:
        return self.engine.chat(chat_id, self.emitter(chat_id))

    def emitter(self, chat_id: str) -> Callable[[dict[str, Any]], None]:
        return lambda event: self.post({"type": Msg.EVENT.value, "chat": chat_id, "event": event})

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
