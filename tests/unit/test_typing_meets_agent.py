"""The user types in a file the agent writes: the editor's save names the text its typing started from,
and the two writes are ordered (the agent's first, under the path's lock) so neither is lost and both
are in the history."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agentlite.service import AgentService
from agentlite.workspace import MemoryStorage, Workspace
from agentlite.workspace.text_merge import merge
from tests.unit.test_service import drain

BASE = "one\ntwo\nthree\nfour\n"
AGENTS = "one\ntwo\nthree\nFOUR (agent)\n"


def test_changes_to_different_lines_merge_and_the_same_change_applies_once() -> None:
    assert merge(BASE, "ONE (user)\ntwo\nthree\nfour\n", AGENTS) == "ONE (user)\ntwo\nthree\nFOUR (agent)\n"
    assert merge(BASE, AGENTS, AGENTS) == AGENTS
    assert merge(BASE, BASE + "five\n", "zero\n" + BASE) == "zero\n" + BASE + "five\n"


def test_changes_to_the_same_lines_do_not_merge() -> None:
    assert merge(BASE, "one\ntwo\nthree\nfour!\n", AGENTS) is None
    assert merge("", "user\n", "agent\n") is None  # both insert at the same place


async def _service() -> tuple[AgentService, Workspace, list[dict[str, Any]]]:
    workspace = await Workspace.open(MemoryStorage())
    await workspace.write_text("/notes.md", BASE)
    posted: list[dict[str, Any]] = []
    return AgentService(posted.append, workspace, lambda _s: None), workspace, posted  # type: ignore[arg-type, return-value]


def _save(service: AgentService, text: str, base: str | None) -> None:
    args = {"path": "/notes.md", "text": text, **({"base": base} if base is not None else {})}
    service.handle(json.dumps({"type": "call", "id": 1, "method": "vfs.writeText", "args": args}))


def test_a_save_made_while_the_agent_wrote_the_file_keeps_both_changes() -> None:
    async def scenario() -> tuple[str | None, list[str | None]]:
        service, workspace, _ = await _service()
        async with service.engine.locks.hold("/notes.md"):  # the agent's tool is writing the file
            _save(service, "ONE (user)\ntwo\nthree\nfour\n", base=BASE)
            await asyncio.sleep(0)
            await workspace.write_text("/notes.md", AGENTS, author="agent", turn="t1")
        await drain(service)
        authors = [v.get("author") for v in await workspace.history("/notes.md")]
        return await workspace.read_text("/notes.md"), authors

    text, authors = asyncio.run(scenario())
    assert text == "ONE (user)\ntwo\nthree\nFOUR (agent)\n"
    assert authors[-2:] == ["agent", "user"]


def test_a_save_that_clashes_with_the_agents_write_keeps_the_agents_in_the_history() -> None:
    async def scenario() -> tuple[str | None, list[str]]:
        service, workspace, _ = await _service()
        await workspace.write_text("/notes.md", AGENTS, author="agent", turn="t1")
        _save(service, "one\ntwo\nthree\nfour!\n", base=BASE)
        await drain(service)
        history = await workspace.history("/notes.md")
        return await workspace.read_text("/notes.md"), [str(v.get("author")) for v in history]

    text, authors = asyncio.run(scenario())
    assert text == "one\ntwo\nthree\nfour!\n"
    assert authors[-2:] == ["agent", "user"]


def test_a_save_without_a_base_writes_the_text_as_given() -> None:
    async def scenario() -> str | None:
        service, workspace, _ = await _service()
        await workspace.write_text("/notes.md", AGENTS, author="agent")
        _save(service, "replaced\n", base=None)
        await drain(service)
        return await workspace.read_text("/notes.md")

    assert asyncio.run(scenario()) == "replaced\n"
