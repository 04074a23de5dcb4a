"""A dispatcher over the real tools that records instead of running: what the engine decides about a call
(its question, its lock, its card, what would run), over a small fixed workspace."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

from agentlite.engine.approvals import ApprovalDesk, Peek
from agentlite.engine.dispatch import Call, Dispatcher
from agentlite.engine.locks import ResourceLocks
from agentlite.engine.loopguard import LoopGuard
from agentlite.tools.catalog import all_tools
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import ToolRegistry
from agentlite.tools.result import ToolResult

BIG = "\n".join(f"line {n}" for n in range(100)) + "\n"
FILES = {"/a.txt": "one\ntwo\n", "/big.txt": BIG, "/AGENTS.md": "Be brief.\n", "/docs/AGENTS.md": "x\n"}
FOLDERS = {"/docs": ["/docs/AGENTS.md"], "/src": ["/src/x.ts"]}


class RecordingRegistry(ToolRegistry):
    """The real tools, but a call records what it would run instead of running it."""

    ran: list[tuple[str, dict[str, Any]]]

    async def call(self, name: str, arguments: dict[str, Any], context: ToolContext) -> ToolResult:
        self.ran.append((name, arguments))
        return ToolResult.success("ok")


class RecordingLocks(ResourceLocks):
    taken: list[tuple[tuple[str, ...], bool]]

    @contextlib.asynccontextmanager
    async def hold(self, resources: Any, shared: bool = False) -> AsyncIterator[None]:
        self.taken.append((tuple(resources), shared))
        yield


async def peek_exists(path: str) -> bool:
    return path in FILES or path in FOLDERS


async def peek_text(path: str) -> str | None:
    return FILES.get(path)


async def peek_below(path: str) -> list[str]:
    return FOLDERS.get(path, [])


async def decide(name: str, arguments: dict[str, Any], auto: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Everything the engine decides and shows about one call, with the user rejecting any question."""
    return await decide_reply([(name, arguments)], auto)


async def decide_reply(
    items: list[tuple[str, dict[str, Any]]], auto: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The same for the calls of one reply, submitted together as a native reply is."""
    registry = RecordingRegistry(all_tools())
    registry.ran = []
    locks = RecordingLocks()
    locks.taken = []
    events: list[Any] = []
    dispatcher = Dispatcher(
        registry,
        ToolContext.__new__(ToolContext),
        locks=locks,
        desk=ApprovalDesk(),
        guard=LoopGuard(),
        emit=events.append,
        exists=Peek(peek_exists, peek_text, peek_below),
        auto_approve=set(auto),
        batch="b1",
        clock=lambda: 0.0,
    )
    dispatcher.submit([Call(f"c{n}", name, dict(arguments)) for n, (name, arguments) in enumerate(items, 1)])
    for _ in range(20 + 5 * len(items)):
        await asyncio.sleep(0)
        for waiting in dispatcher.desk.waiting:
            dispatcher.desk.answer(waiting, False)
    calls = await dispatcher.drain()
    return {
        "events": [(type(e).__name__, dataclasses.asdict(e)) for e in events],
        "locks": locks.taken,
        "ran": registry.ran,
        "history": [(c.name, c.arguments, c.status) for c in calls],
    }


def asked(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The questions a decided call raised."""
    return [event for kind, event in found["events"] if kind == "ApprovalAsked"]
