"""The chat events are defined once (engine/chat_events.py); the page reads the table generated from them
(web/src/generated/chat-events.json, kept current by tests/build/test_page_facts.py). These tests fix the
wire form."""

import ast
import json
from pathlib import Path

from agentlite.engine.chat_events import (
    KINDS,
    WIRE_FIELDS,
    ContextMeter,
    DecisionAsked,
    MemoryAdded,
    StateChanged,
    ToolStatus,
    TurnEnded,
    TurnFailed,
    event_dict,
)
from agentlite.errors import ErrorType, ModelError
from agentlite.events import ThinkingDelta

ROOT = Path(__file__).resolve().parents[2]
PAGE_TABLE = ROOT / "web" / "src" / "generated" / "chat-events.json"


def test_kinds_and_fields_match_the_page() -> None:
    page = json.loads(PAGE_TABLE.read_text())["events"]
    assert {kind: tuple(names) for kind, names in page.items()} == WIRE_FIELDS
    assert set(WIRE_FIELDS) == KINDS


def test_wire_form_keeps_kind_first_and_field_order() -> None:
    event = event_dict(TurnEnded(turn=None, state="cancelled", rounds=0))
    assert list(event.items()) == [
        ("kind", "turn_end"),
        ("turn", None),
        ("state", "cancelled"),
        ("rounds", 0),
    ]
    assert event_dict(ThinkingDelta("hm")) == {"kind": "thinking", "text": "hm", "tool_id": None}


def test_unset_optional_fields_are_left_out() -> None:
    assert event_dict(StateChanged(state="idle", previous="completed")) == {
        "kind": "state",
        "state": "idle",
        "previous": "completed",
    }
    assert "round" in event_dict(StateChanged(state="requesting", previous="planning", round=1))
    status = event_dict(ToolStatus(id="c1", name="read_file", status="executing"))
    assert list(status) == ["kind", "id", "name", "status"]
    meter = event_dict(ContextMeter(used=1, window=2, limit=3, source="estimate"))
    assert "stubbed" not in meter and "summarized" not in meter


def test_decision_keys_keep_their_order() -> None:
    asked = DecisionAsked(
        error_type=None, reason="loop", message="m", advice="a", options=["retry"], settings=False
    )
    keys = ["kind", "error_type", "reason", "message", "advice", "options", "settings"]
    assert list(event_dict(asked)) == keys
    error = DecisionAsked(error_type="auth", message="m", advice="a", options=["retry"], settings=True)
    assert list(event_dict(error)) == [k for k in keys if k != "reason"]


def test_turn_error_spreads_the_error() -> None:
    error = ModelError(ErrorType.RATE_LIMIT, "slow down", 429)
    assert event_dict(TurnFailed.of(error, final=True)) == {
        "kind": "turn_error",
        **error.to_dict(),
        "final": True,
    }


def test_memory_event_says_added() -> None:
    assert event_dict(MemoryAdded(memory={"id": "m1"})) == {
        "kind": "memory",
        "action": "added",
        "memory": {"id": "m1"},
    }


def test_engine_code_builds_no_event_dicts() -> None:
    """Emit sites build the dataclasses: a dict literal with a "kind" key in engine code (outside the
    one serialiser) is an event that skipped them."""
    found = []
    for path in sorted((ROOT / "py" / "agentlite" / "engine").glob("*.py")):
        if path.name == "chat_events.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict) and any(
                isinstance(k, ast.Constant) and k.value == "kind" for k in node.keys
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
