"""For random projects (files written through the Workspace over several commits, text and binary, deletes
and moves; chats; memory), write → read → open into a fresh storage gives every store back byte for byte."""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agentlite.engine.chats import ChatStore
from agentlite.engine.memory import Memory
from agentlite.handoff import open_handoff, read_handoff, write_handoff
from agentlite.workspace import Workspace
from agentlite.workspace.storage import Batch, MemoryStorage
from agentlite.workspace.workspace_errors import WorkspaceError
from tests.unit.handoff.test_handoff_roundtrip import unheld
from tests.unit.workspace.helpers import open_workspace

NAMES = st.sampled_from(["/a.txt", "/b.bin", "/src/c.py", "/src/deep/d.md", "/AGENTS.md", "/e"])
CONTENT = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.builds(lambda line, n: line * n, st.text(min_size=1, max_size=40), st.integers(30, 120)),
)
STEP = st.one_of(
    st.tuples(st.just("write"), NAMES, CONTENT),
    st.tuples(st.just("delete"), NAMES, st.none()),
    st.tuples(st.just("move"), NAMES, NAMES),
)
CHATS = st.lists(st.lists(st.text(max_size=80), max_size=4), max_size=3)
MEMORY = st.lists(st.text(min_size=1, max_size=60), max_size=3)


async def build(
    steps: list[tuple[str, str, Any]], chats: list[list[str]], memory: list[str]
) -> MemoryStorage:
    storage = MemoryStorage()
    ws = await open_workspace(storage)
    for number, (op, path, arg) in enumerate(steps):
        await apply(ws, op, path, arg, f"t{number % 3}")
    store = ChatStore(storage)
    for index, texts in enumerate(chats):
        messages = [{"id": f"m{n}", "role": "user", "content": text} for n, text in enumerate(texts)]
        await store.save({"id": f"c{index}", "title": f"chat {index}", "messages": messages})
    batch = Batch()
    for index, text in enumerate(memory):
        batch.put("memory", f"k{index}", json.dumps(asdict(Memory(f"k{index}", text)), ensure_ascii=False))
    await storage.commit(batch)
    return storage


async def apply(ws: Workspace, op: str, path: str, arg: Any, turn: str) -> None:
    try:
        if op == "write":
            await ws.write(path, arg, turn=turn, author="agent")
        elif op == "delete":
            await ws.delete(path, turn=turn, author="user")
        else:
            await ws.move(path, arg, turn=turn, author="agent")
    except WorkspaceError:
        pass  # a step the workspace refuses (no such file, a folder in the way) changes nothing


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=1, max_size=12), CHATS, MEMORY)
@example([("write", "/a.txt", "x\u2028y")], [["a\x85b"]], ["\x85"])  # line separators that are not LF
def test_any_project_comes_back_byte_for_byte(
    steps: list[tuple[str, str, Any]], chats: list[list[str]], memory: list[str]
) -> None:
    async def run() -> None:
        source = await build(steps, chats, memory)
        data = await write_handoff(source, "P", {}, {})
        target = MemoryStorage()
        await open_handoff(target, read_handoff(data))
        assert unheld(target) == unheld(source)

    asyncio.run(run())
