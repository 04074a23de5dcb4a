"""The agent service: takes worker-protocol messages from the page, runs chats, answers calls.

Pure Python: the browser edge (`agentlite.browser.host`) gives it a `post` function, a workspace,
storage and a transport factory; tests give it fakes. Chats are `agentlite.engine` sessions.

With each endpoint the page sets, the service learns what the endpoint offers: the selected model's
context window from its `/models` listing (read once per base URL + model, in the background), and
long-term memory's embedder when an `embedding_model` is set. The window a turn uses is the user's
(a non-zero `context_window` in the settings or the message), else the listing's, else the engine's
default.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from agentlite import connection
from agentlite.calls import CallHandler
from agentlite.engine import Engine
from agentlite.engine.budget import DEFAULT_WINDOW
from agentlite.engine.memory import EndpointEmbedder
from agentlite.engine.session import ChatSession
from agentlite.protocol import Msg
from agentlite.sandbox import SandboxClient
from agentlite.settings import Settings, window_size
from agentlite.tools.context import ToolContext, ToolSettings
from agentlite.transport import ModelTransport

Post = Callable[[dict[str, Any]], None]
TransportFor = Callable[[Settings], ModelTransport]
log = logging.getLogger(__name__)
TURN_OPTIONS = (
    "mode",
    "tool",
    "references",
    "open_file",
    "selection",
    "max_rounds",
    "auto_approve",
    "context_window",
    "edit",  # the id of the user message this one replaces (a new branch)
    "regenerate",  # answer the last user message again (a new branch of the answer)
)
EVAL_TIMEOUT_S = (1, 300)  # the settings' JavaScript eval timeout, in seconds


class AgentService:
    def __init__(
        self, post: Post, workspace: Any, transport_for: TransportFor, *, storage: Any = None
    ) -> None:
        self.post = post
        self.workspace = workspace
        self.transport_for = transport_for
        self.settings = Settings()
        self.sandbox = SandboxClient(post)
        self.tool_settings = ToolSettings()
        self.engine = Engine(
            None, workspace, sandbox=self.sandbox, storage=storage, context_factory=self._tool_context
        )
        self.chats: dict[str, ChatSession] = self.engine.sessions
        self.calls = CallHandler(self)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.windows: dict[tuple[str, str], int | None] = {}  # (base URL, model) -> window; None: asking

    def handle(self, raw: str) -> None:
        """Entry point for every message from the page (a JSON string)."""
        message = json.loads(raw)
        kind = message.get("type")
        chat_id = str(message.get("chat") or "chat-1")
        if kind == Msg.SETTINGS:
            self.settings_changed(message.get("settings") or {})
        elif kind == Msg.SEND:
            options = {k: message[k] for k in TURN_OPTIONS if message.get(k) is not None}
            options["context_window"] = self.context_window(options.get("context_window"))
            transport = self.transport_for(self.settings)
            self.chat(chat_id).start_turn(str(message.get("text") or ""), self.settings, transport, **options)
        elif kind == Msg.STOP:
            self.chat(chat_id).stop()
        elif kind == Msg.APPROVE:
            self.chat(chat_id).approve(
                str(message.get("id")), bool(message.get("approved")), bool(message.get("batch"))
            )
        elif kind == Msg.DECIDE:
            self.chat(chat_id).decide(str(message.get("choice")))
        elif kind == Msg.SANDBOX_RESULT:
            self.sandbox.deliver(message)
        elif kind == Msg.CALL:
            self.spawn(self._answer(message.get("id"), str(message.get("method")), message.get("args") or {}))
        else:
            log.warning("unknown message type %r", kind)

    def settings_changed(self, values: dict[str, Any]) -> None:
        self.settings = settings = Settings.from_message(values)
        self.tool_settings = _tool_settings(values)
        self.engine.endpoint_changed(settings, self.transport_for(settings))
        if self.engine.memory is not None:
            self.engine.memory.use_embedder(self._embedder(settings))
        key = (settings.base_url, settings.model)
        if not settings.is_demo and key not in self.windows:
            self.windows[key] = None
            self.spawn(self._read_window(settings))

    def context_window(self, requested: Any = None) -> int:
        """The window for a turn: the user's (the message's or the settings'), the model's, the default."""
        settings = self.settings
        explicit = window_size(requested) or settings.context_window
        return explicit or self.windows.get((settings.base_url, settings.model)) or DEFAULT_WINDOW

    def learn_window(self, base_url: str, model: str, size: int | None) -> None:
        """Record a model's window from a listing (the connection test reads one too)."""
        if size:
            self.windows[(base_url, model)] = size

    async def _read_window(self, settings: Settings) -> None:
        size = await connection.model_window(settings, self.transport_for(settings))
        if size is None:  # unknown, or the endpoint did not answer: ask again with the next settings
            self.windows.pop((settings.base_url, settings.model), None)
        self.learn_window(settings.base_url, settings.model, size)

    def _embedder(self, settings: Settings) -> EndpointEmbedder | None:
        if settings.is_demo or not settings.embedding_model:
            return None
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if settings.api_key:
            headers["Authorization"] = f"Bearer {settings.api_key}"
        transport = self.transport_for(settings)
        return EndpointEmbedder(transport, settings.base_url, headers, settings.embedding_model)

    def _tool_context(self, turn_id: str, open_file: str | None, save_summary: Callable[[Any], None]) -> Any:
        """The tools' context for one turn, with the limits the page set (the eval timeout)."""
        if self.workspace is None:
            return None
        return ToolContext(
            self.workspace,
            turn_id,
            sandbox=self.sandbox,
            save_summary=save_summary,
            editor_path=open_file,
            settings=self.tool_settings,
        )

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


def _tool_settings(settings: dict[str, Any]) -> ToolSettings:
    try:
        seconds = float(settings.get("eval_timeout_s") or 0)
    except (TypeError, ValueError):
        seconds = 0
    if not seconds:
        return ToolSettings()
    low, high = EVAL_TIMEOUT_S
    return replace(ToolSettings(), eval_timeout_ms=int(min(high, max(low, seconds)) * 1000))
