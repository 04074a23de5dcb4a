"""The first screen's examples are the demo model's own scenarios: each one routes to its scenario, and
the page can ask for them."""

from __future__ import annotations

import asyncio
import json

import pytest

from agentlite import demo
from agentlite.demo import SCENARIOS, Conversation, examples, next_step
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
