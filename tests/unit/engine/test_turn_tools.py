"""A turn owns its tools: each round offers, and runs, the snapshot it took as it began. A change of the
engine's registry in the middle of a round (a remote server's list read again during a call, a tool
turned off) is offered at the next round, never to the round in flight; a change a server announced is
read before the next round begins (engine.turn_tools)."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolResult
from tests.unit.engine.support import Harness, PathArgs, calls, say


def names(request: dict[str, Any]) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools") or ()}


def results(request: dict[str, Any]) -> dict[str, str]:
    """Each tool result of a request, by the name of the call it answers."""
    called = {
        call["id"]: call["function"]["name"]
        for message in request["messages"]
        for call in message.get("tool_calls") or ()
    }
    return {called[m["tool_call_id"]]: m["content"] for m in request["messages"] if m["role"] == "tool"}


def test_a_list_changed_mid_round_is_offered_at_the_next_round_never_to_the_round_in_flight() -> None:
    h = Harness(
        [
            calls(("grow", {}), ("extra", {"path": "/x"}), ("list_directory", {"path": "/"})),
            calls(("extra", {"path": "/y"})),
            say("done"),
        ]
    )
    h.setup()
    assert h.engine is not None
    registry = h.engine.registry
    announced: list[bool] = []
    rereads: list[int] = []

    async def grow(_context: Any, _args: Any) -> ToolResult:
        """What a server's list read during a call does to the engine's registry, at once; and a change
        it announced, read when the next round asks (`reread_remote`)."""
        registry.remove("list_directory")
        registry.register(h.tools.tool("extra", Risk.READ))
        announced.append(True)
        return ToolResult.success("grown")

    async def reread() -> None:
        rereads.append(len(h.requests()))
        if announced and registry.get("later") is None:
            registry.register(h.tools.tool("later", Risk.READ))

    registry.register(Tool("grow", "Grows the server's list.", PathArgs, grow, Risk.READ))
    h.engine.reread_remote = reread
    asyncio.run(h.turn("grow it"))

    first, second, third = h.requests()
    assert "list_directory" in names(first) and not {"extra", "later"} & names(first)
    ran = [name for name, _args in h.tools.ran]
    assert "list_directory" in ran  # offered in this round: it runs from the round's snapshot
    assert "unknown tool 'extra'" in results(second)["extra"]  # not offered in this round
    assert {"extra", "later"} <= names(second) and "list_directory" not in names(second)
    assert ran.count("extra") == 1 and results(third)["extra"].startswith("extra ok: /y")
    assert rereads == [0, 1, 2]  # once before each round's request, announced changes read first


def test_a_rounds_snapshot_resolves_every_alias_to_the_tool_the_live_registry_does() -> None:
    """Approvals, locks, cards and history read the canonical call the round's snapshot resolves: a copy
    must know every alias of every tool, as the live registry does."""
    from agentlite.engine.turn_tools import TurnTools
    from agentlite.tools import catalog
    from agentlite.tools.registry import ToolRegistry

    async def nothing() -> None:
        return None

    live = ToolRegistry(catalog.all_tools())
    tools = TurnTools(live, lambda _window: None, nothing)
    asyncio.run(tools.take(32_000))
    spellings = [(name, tool.name) for tool in live for name in (tool.name, *tool.aliases)]
    assert any(name != canonical for name, canonical in spellings)  # the catalog has aliases to check
    for name, canonical in spellings:
        found = tools.registry.get(name)
        assert found is not None and found.name == canonical, name
