"""The agent service: takes worker-protocol messages from the page, runs chats, answers calls.

Pure Python: the browser edge (`agentlite.browser.host`) gives it a `post` function, a workspace
and a transport factory; tests give it fakes.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from agentlite.chat import Chat
from agentlite.protocol import Msg
from agentlite.sandbox import SandboxClient
from agentlite.settings import Settings
from agentlite.transport import ModelTransport

Post = Callable[[dict[str, Any]], None]
TransportFor = Callable[[Settings], ModelTransport]
log = logging.getLogger(__name__)


class AgentService:
    def __init__(self, post: Post, workspace: Any, transport_for: TransportFor) -> None:
        self.post = post
        self.workspace = workspace
        self.transport_for = transport_for
        self.settings = Settings()
        self.chats: dict[str, Chat] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.sandbox = SandboxClient(post)

    def handle(self, raw: str) -> None:
        """Entry point for every message from the page (a JSON string)."""
        message = json.loads(raw)
        kind = message.get("type")
        if kind == Msg.SETTINGS:
            self.settings = Settings.from_message(message.get("settings") or {})
        elif kind == Msg.SEND:
            chat = self.chat(str(message.get("chat") or "chat-1"))
            chat.start_turn(str(message.get("text") or ""), self.settings, self.transport_for(self.settings))
        elif kind == Msg.STOP:
            self.chat(str(message.get("chat") or "chat-1")).stop()
        elif kind == Msg.SANDBOX_RESULT:
            self.sandbox.deliver(message)
        elif kind == Msg.CALL:
            self._spawn(
                self._answer(message.get("id"), str(message.get("method")), message.get("args") or {})
            )
        else:
            log.warning("unknown message type %r", kind)

    def chat(self, chat_id: str) -> Chat:
        if chat_id not in self.chats:
            self.chats[chat_id] = Chat(chat_id, lambda event: self._event(chat_id, event))
        return self.chats[chat_id]

    def _event(self, chat_id: str, event: dict[str, Any]) -> None:
        self.post({"type": Msg.EVENT.value, "chat": chat_id, "event": event})

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _answer(self, call_id: Any, method: str, args: dict[str, Any]) -> None:
        try:
            value = await self._dispatch(method, args)
        except Exception as exc:  # every failure becomes an answer; the page decides what to show
            self.post({"type": Msg.REPLY.value, "id": call_id, "ok": False, "error": str(exc)})
        else:
            self.post({"type": Msg.REPLY.value, "id": call_id, "ok": True, "value": value})

    async def _dispatch(self, method: str, args: dict[str, Any]) -> Any:
        ws = self.workspace
        if method == "vfs.readText":
            return await ws.read_text(args["path"])
        if method == "vfs.writeText":
            await ws.write_text(args["path"], args["text"], author="user")
            return None
        if method == "vfs.list":
            return await ws.list(args.get("dir") or "/", recursive=bool(args.get("recursive")))
        if method == "vfs.history":
            return await ws.history(args["path"])
        raise ValueError(f"unknown method {method!r}")
