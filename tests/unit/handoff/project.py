"""A small real project for the hand-off tests: files written through the Workspace across several
commits (text, binary, a move, a delete, AGENTS.md, a skill), two chats, memory and an MCP server book."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import asdict

from agentlite.engine.chats import ChatStore
from agentlite.engine.memory import Memory
from agentlite.mcp.server_book import ServerBook
from agentlite.workspace.storage import Batch, MemoryStorage
from tests.unit.workspace.helpers import open_workspace

SKILL = "---\nname: tidy\ndescription: Tidies things.\n---\nTidy up.\n"


async def make_project(storage: MemoryStorage | None = None) -> MemoryStorage:
    storage = storage if storage is not None else MemoryStorage()
    ws = await open_workspace(storage)
    await ws.write_text("/AGENTS.md", "Be brief.\n", turn="t1", author="agent")
    await ws.write_text("/src/app.py", "print('hi')\n" * 200, turn="t1", author="agent")
    await ws.write("/img/logo.png", bytes(range(256)) * 8, turn="t2", author="user")
    await ws.write_text("/src/app.py", "print('hi')\n" * 199 + "print('bye')\n", turn="t2", author="agent")
    await ws.write_text("/.agents/skills/tidy/SKILL.md", SKILL, turn="t3", author="agent")
    await ws.move("/src/app.py", "/src/main.py", turn="t3", author="agent")
    await ws.write_text("/gone.txt", "x", turn="t4", author="user")
    await ws.delete("/gone.txt", turn="t4", author="user")
    chats = ChatStore(storage)
    await chats.save(
        {"id": "c1", "title": "One", "messages": [{"id": "m1", "role": "user", "content": "hi"}]}
    )
    await chats.save({"id": "c2", "title": "Two", "messages": []})
    await chats.save_tabs(["c1", "c2"], "c1")
    book = ServerBook(storage)
    book.add("https://mcp.example.com/mcp").name = "Example"
    await book.save()
    batch = Batch()
    batch.put("memory", "k1", json.dumps(asdict(Memory("k1", "The user is Ada.", pinned=True))))
    await storage.commit(batch)
    return storage


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def rezip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()
