"""The chats' room (`chats.*`): starts turns, and the chats' commands and views for the page's tabs.

A `chats.send` arrives as one frozen `SendMessage`: its editor state goes to the editor's room (the one
holder a turn's tools read the open file from) before the turn starts on the settings' room's link.
User actions on a chat (a rename, an import) are saved through the engine's chat store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from agentlite.commands import SendMessage
from agentlite.engine import Engine
from agentlite.engine.chat_file import export_document, fresh_chat_id, read_document
from agentlite.engine.chat_markdown import chat_markdown
from agentlite.engine.session import ChatSession
from agentlite.protocol import Msg
from agentlite.rooms.editor_room import EditorRoom
from agentlite.rooms.settings_room import SettingsRoom
from agentlite.workspace import Workspace

RENAME_CHARS = 80  # a tab title the user types
Post = Callable[[dict[str, Any]], None]


class ChatRoom:
    def __init__(
        self, engine: Engine, workspace: Workspace, settings: SettingsRoom, editor: EditorRoom, post: Post
    ) -> None:
        self.engine = engine
        self.workspace = workspace
        self.settings = settings
        self.editor = editor
        self.post = post

    def chat(self, chat_id: str) -> ChatSession:
        return self.engine.chat(chat_id, self.emitter(chat_id))

    def emitter(self, chat_id: str) -> Post:
        return lambda event: self.post({"type": Msg.EVENT.value, "chat": chat_id, "event": event})

    # --- the chats' commands --------------------------------------------------------------------------

    def send(self, send: SendMessage) -> None:
        """A message of the user: a turn of the chat on the current link (the chat has its limits)."""
        self.editor.changed(send.editor)
        self.chat(send.chat_id).start_turn(send.text, self.settings.turn_link(), send.options)

    def stop(self, chat_id: str) -> None:
        self.chat(chat_id).stop()

    def approve(self, chat_id: str, call: str, approved: bool, batch: bool, ask: str | None = None) -> bool:
        return self.chat(chat_id).approve(str(call), bool(approved), bool(batch), str(ask) if ask else None)

    def decide(self, chat_id: str, choice: str) -> bool:
        return self.chat(chat_id).decide(str(choice))

    # --- the tabs ---------------------------------------------------------------------------------------

    async def restore(self) -> dict[str, Any]:
        return await self.engine.restore(self.emitter)

    async def save_tabs(self, order: list[str], active: str | None) -> None:
        await self.engine.save_tabs(order, active)

    async def close(self, chat_id: str) -> None:
        await self.engine.close_chat(chat_id)

    async def apply_settings(self, chat_id: str, values: dict[str, Any]) -> None:
        await self.chat(chat_id).apply_settings(**values)

    async def rename(self, chat_id: str, title: str) -> None:
        session = self.chat(chat_id)
        session.title = " ".join(title.split())[:RENAME_CHARS] or session.title
        await self.engine.save_chat(session)

    async def switch(self, chat_id: str, message: str, index: int) -> dict[str, Any]:
        return await self.chat(chat_id).switch_branch(message, int(index))

    def snapshot(self, chat_id: str) -> dict[str, Any]:
        return self.chat(chat_id).snapshot()

    async def restore_point(self, chat_id: str, message: str) -> str | None:
        """The first turn of the active path from `message` on that changed files (None: none did)."""
        recorded = {t["turn"] for t in await self.workspace.turns()}
        path = self.chat(chat_id).messages
        ids = [m.id for m in path]
        if message not in ids:
            return None
        return next((m.turn for m in path[ids.index(message) :] if m.turn in recorded), None)

    # --- a chat as a file ---------------------------------------------------------------------------------

    def export(self, chat_id: str, format: str) -> dict[str, str]:
        """`markdown` to read, `json` to import again (every branch in both): a name, a type, the text."""
        session = self.chat(chat_id)
        record = session.to_record()
        stem = re.sub(r"[^\w-]+", "-", session.title.lower()).strip("-")[:60] or "chat"
        if format == "markdown":
            return {"name": f"{stem}.md", "type": "text/markdown", "text": chat_markdown(record)}
        text = json.dumps(export_document(record), ensure_ascii=False, indent=1)
        return {"name": f"{stem}.json", "type": "application/json", "text": text}

    async def import_chat(self, text: str) -> dict[str, Any]:
        """An exported chat opened as a new tab; its snapshot (ChatFileError: not a chat)."""
        record = read_document(text)
        notes = record.pop("notes", [])  # attachments left out (docs/attachments.md)
        session = self.chat(fresh_chat_id())
        session.load_record({**record, "id": session.id})
        await self.engine.save_chat(session)
        return {**session.snapshot(), "notes": notes} if notes else session.snapshot()
