"""Calls the first screen and the chat's code actions make: the demo model's examples (its own scenarios, each
routing to itself) and what a write would change, read before anything is written."""

from __future__ import annotations

import asyncio
import json

import pytest

from agentlite import demo
from agentlite.demo.conversation import Conversation
from agentlite.demo.scenarios import SCENARIOS, examples, next_step
from tests.unit.test_service import drain, make_service


def _routed(request: str) -> demo.Scenario | None:
    return next((s for s in SCENARIOS if any(word in request.lower() for word in s.words)), None)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.example for s in SCENARIOS])
def test_every_example_reaches_its_own_scenario(scenario: demo.Scenario) -> None:
    assert _routed(scenario.example) is scenario


def test_the_first_screen_offers_four_to_six_featured_examples() -> None:
    offered = examples()
    assert 4 <= len(offered) <= 6
    assert [e["prompt"] for e in offered] == [s.example for s in SCENARIOS if s.featured]
    assert all(e["detail"] for e in offered)


def test_the_greeting_names_every_example() -> None:
    reply = next_step(Conversation("native", request="hello")).text
    assert all(f'"{s.example}"' in reply for s in SCENARIOS)


def test_the_page_asks_for_the_examples_with_a_call() -> None:
    service, posted, _ = make_service()

    async def scenario() -> None:
        service.handle(json.dumps({"type": "call", "id": 7, "method": "demo.examples", "args": {}}))
        await drain(service)

    asyncio.run(scenario())
    reply = next(m for m in posted if m.get("id") == 7)
    assert reply["ok"] is True and reply["value"] == examples()


def test_diff_text_counts_what_a_write_would_change_without_writing() -> None:
    service, posted, _ = make_service()

    async def scenario() -> None:
        await service.workspace.write_text("/a.txt", "one\ntwo\nthree\n", author="user")
        args = {"path": "/a.txt", "text": "one\n2\nthree\nfour\n"}
        service.handle(json.dumps({"type": "call", "id": 8, "method": "vfs.diffText", "args": args}))
        args = {"path": "/new.txt", "text": "x\n"}
        service.handle(json.dumps({"type": "call", "id": 9, "method": "vfs.diffText", "args": args}))
        await drain(service)
        assert await service.workspace.read_text("/a.txt") == "one\ntwo\nthree\n"

    asyncio.run(scenario())
    replies = {m["id"]: m["value"] for m in posted if m.get("type") == "reply"}
    assert replies[8]["exists"] is True and (replies[8]["added"], replies[8]["removed"]) == (2, 1)
    assert "-two" in replies[8]["diff"] and "+four" in replies[8]["diff"]
    assert replies[9] == {"exists": False, "diff": replies[9]["diff"], "added": 1, "removed": 0}


def test_worker_busy_holds_python_for_the_seconds_asked_and_no_longer_than_its_limit() -> None:
    """The watchdog's test hook: it returns when its time is up; a negative time holds nothing."""
    from agentlite.rooms.worker_room import BUSY_LIMIT_S

    service, posted, _ = make_service()

    async def scenario() -> None:
        service.handle(
            json.dumps({"type": "call", "id": 11, "method": "worker.busy", "args": {"seconds": 0.05}})
        )
        service.handle(
            json.dumps({"type": "call", "id": 12, "method": "worker.busy", "args": {"seconds": -1}})
        )
        await drain(service)

    asyncio.run(scenario())
    replies = {m["id"]: m for m in posted if m.get("id") in (11, 12)}
    assert replies[11]["ok"] is True and replies[11]["value"] == 0.05
    assert replies[12]["ok"] is True
    assert BUSY_LIMIT_S <= 600
