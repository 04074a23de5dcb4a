"""The worker protocol is defined once (protocol.py); the page and the worker read the table generated
from it (web/src/generated/protocol.json, kept current by tests/build/test_page_facts.py)."""

import json
from pathlib import Path

from agentlite.protocol import PHASES, Msg

PAGE = json.loads(
    (Path(__file__).resolve().parents[2] / "web" / "src" / "generated" / "protocol.json").read_text()
)["protocol"]


def test_message_types_match() -> None:
    assert PAGE["MSG"] == {m.name: m.value for m in Msg}


def test_phases_match() -> None:
    assert tuple(PAGE["PHASES"]) == PHASES
