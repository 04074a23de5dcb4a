"""One canonical call: whatever spelling the model uses for a tool's name or its arguments, everything that
decides about the call (the approval, the lock, the card, what runs and what the history keeps) sees the
same canonical form as for the contract's own spelling. A spelling that slipped past a rule
(`write_file {"file_path": ...}` overwriting unasked) is the bug this guards against."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.tools.catalog import all_tools
from agentlite.tools.common import PATH_SYNONYMS
from agentlite.tools.editing import NEW_SYNONYMS, ORIGINAL_SYNONYMS
from tests.unit.engine.real_calls import BIG, asked, decide, decide_reply

PATHS = ["/a.txt", "a.txt", "/new.txt", "/big.txt", "/AGENTS.md", "docs/agents.md", "/docs", "/src"]
SYNONYMS = {"path": PATH_SYNONYMS, "originalCode": ORIGINAL_SYNONYMS, "newCode": NEW_SYNONYMS}


def examples(tool: str, path: str) -> list[dict[str, Any]]:
    """Valid canonical arguments of each tool, around one path."""
    whole_big = {"path": path, "originalCode": BIG, "newCode": "gone\n"}
    return {
        "list_directory": [{"path": path}, {"path": path, "recursive": True}],
        "read_file": [{"path": path}, {"path": path, "start_line": 3, "max_lines": 5}],
        "search": [{"query": "two", "path": path}, {"query": "t.o", "regex": True, "include": ["*.txt"]}],
        "create_file": [{"path": path, "content": "hi\n"}],
        "write_file": [{"path": path, "content": "hi\n"}],
        "edit_file": [{"path": path, "originalCode": "two", "newCode": "three"}, whole_big],
        "delete_file": [{"path": path}],
        "move_file": [{"source": path, "destination": "/a.txt"}, {"source": "/a.txt", "destination": path}],
        "rename_file": [{"path": path, "new_name": "AGENTS.md"}, {"path": path, "new_name": "b.txt"}],
        "create_folder": [{"path": path}],
        "browser_js_eval": [{"code": "1 + 1"}],
        "shell_exec": [{"command": "ls\nrm -rf /src"}],
        "preview_page": [{"path": path}],
        "preview_snapshot": [{"path": path}],
        "preview_act": [{"ref": "e1", "action": "click"}, {"ref": "e2", "action": "type", "value": "hi"}],
        "preview_wait": [{"text": "done", "timeout_ms": 100}],
        "load_skill": [{"name": "pdf"}],
        "conversation_summary": [{"summary": "Goal: x\nDone: y\nTo do: z"}],
        "edit_current_editor_document": [{"content": "new text"}],
        "check_problems": [{"path": path}],
    }[tool]


@st.composite
def spelled(draw: st.DrawFn) -> tuple[str, dict[str, Any], str, dict[str, Any]]:
    """A canonical call and the same call as another model would spell it."""
    tool = draw(st.sampled_from(all_tools()))
    canonical = draw(st.sampled_from(examples(tool.name, draw(st.sampled_from(PATHS)))))
    name = draw(st.sampled_from([tool.name, *tool.aliases]))
    arguments: dict[str, Any] = {}
    for key, value in canonical.items():
        arguments[draw(st.sampled_from([key, *SYNONYMS.get(key, ())]))] = value
    for key, info in tool.args.model_fields.items():
        if key not in canonical and not info.is_required() and draw(st.booleans()):
            arguments[key] = None  # `null` for an unused optional argument means its default
    required = [k for k, info in tool.args.model_fields.items() if info.is_required()]
    plain = all(key in tool.args.model_fields for key in arguments)
    if plain and len(required) == 1 and required[0] in arguments and draw(st.booleans()):
        arguments["the_" + required[0]] = arguments.pop(required[0])  # one wrong name for the one required
    return tool.name, canonical, name, arguments


@settings(max_examples=300, deadline=None)
@given(spelled())
def test_every_spelling_is_decided_shown_locked_run_and_kept_as_the_canonical_one(
    case: tuple[str, dict[str, Any], str, dict[str, Any]],
) -> None:
    canonical_name, canonical, name, arguments = case
    assert asyncio.run(decide(name, arguments)) == asyncio.run(decide(canonical_name, canonical))


def test_every_tool_has_examples() -> None:
    for tool in all_tools():
        assert examples(tool.name, "/a.txt"), tool.name


def test_an_overwrite_spelled_file_path_asks() -> None:
    """The finding: `file_path` skipped the overwrite question, and the card said nothing of the path."""
    found = asyncio.run(decide("write_file", {"file_path": "/a.txt", "content": "x"}))
    question = asked(found)
    assert question and "overwrites the existing file /a.txt" in question[0]["reason"]
    assert question[0]["arguments"] == {"path": "/a.txt", "content": "x"}
    assert found["ran"] == [], "rejected by the user: nothing ran"


def test_a_delete_spelled_file_names_its_path_on_the_card() -> None:
    found = asyncio.run(decide("delete_file", {"file": "/a.txt"}))
    question = asked(found)
    assert question[0]["reason"] == "This call deletes /a.txt." and question[0]["arguments"] == {
        "path": "/a.txt"
    }


def test_an_invalid_call_fails_before_any_question_or_lock() -> None:
    found = asyncio.run(decide("delete_file", {"paths": ["/a.txt"], "force": True}))
    assert [kind for kind, _e in found["events"]] == ["ToolStatus"]
    assert found["locks"] == [] and found["ran"] == []
    assert found["history"][0][2] == "failed"


def test_file_operations_in_any_spelling_count_toward_the_batch_rule() -> None:
    """The finding: `file_path` calls never counted toward "more than 10 file operations"."""
    reply = [("file_create", {"file_path": f"/n{n}.txt", "content": "x"}) for n in range(11)]
    found = asyncio.run(decide_reply(reply))
    reasons = {question["reason"] for question in asked(found)}
    assert len(asked(found)) == 11 and all("one of 11 file operations" in r for r in reasons)
    assert found["ran"] == []
