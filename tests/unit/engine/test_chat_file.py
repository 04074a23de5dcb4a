"""Chat export (JSON to import again, Markdown to read) and import into a new chat: every branch and tool
call travels; a file that is not a chat, or a damaged one, never crashes the import."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.chat_file import ChatFileError, export_document, read_document
from agentlite.engine.chat_markdown import chat_markdown
from agentlite.engine.session import ChatSession
from tests.unit.engine.support import Harness, calls, say


def branched_chat() -> Harness:
    """make a (a tool call and its result) → done; then "make b" edited into "make c"."""
    reply = calls(("create_file", {"path": "/a.txt", "content": "x"}))
    harness = Harness([reply, say("done"), say("B"), say("C")])

    async def run() -> None:
        await harness.turn("make a")
        await harness.turn("make b")
        assert harness.chat is not None
        await harness.turn("make c", edit=harness.chat.messages[-2].id)

    asyncio.run(run())
    return harness


def imported(harness: Harness) -> ChatSession:
    assert harness.chat is not None and harness.engine is not None
    text = json.dumps(export_document(harness.chat.to_record()))
    session = ChatSession(harness.engine.shared, "imported", lambda _e: None, harness.engine.save_chat)
    session.load_record({**read_document(text), "id": "imported"})
    return session


def shape(session: ChatSession) -> list[tuple[Any, ...]]:
    return [
        (m["role"], m.get("content"), m.get("branch"), m.get("branches"), len(m.get("tool_calls") or ()))
        for m in session.snapshot()["messages"]
    ]


def test_json_export_and_import_keep_every_branch_and_tool_call() -> None:
    harness = branched_chat()
    assert harness.chat is not None
    copy = imported(harness)
    assert shape(copy) == shape(harness.chat)
    assert len(copy.tree.nodes) == len(harness.chat.tree.nodes)
    node = copy.snapshot()["messages"][-2]["node"]
    other = asyncio.run(copy.switch_branch(node, 0))["messages"]
    assert [m.get("content") for m in other][-2:] == ["make b", "B"]


def test_an_imported_chat_has_new_ids_and_no_restore_points_of_another_workspace() -> None:
    harness = branched_chat()
    assert harness.chat is not None
    copy = imported(harness)
    assert not set(copy.tree.nodes) & set(harness.chat.tree.nodes)
    assert all(m.turn is None for m in copy.tree.nodes.values())
    assert copy.title == harness.chat.title


def test_markdown_shows_the_conversation_its_tool_calls_and_the_other_branch() -> None:
    harness = branched_chat()
    assert harness.chat is not None
    text = chat_markdown(harness.chat.to_record())
    assert text.startswith("# make a\n")
    assert "**Tool call** `create_file`" in text and '"path": "/a.txt"' in text
    assert "**Result** of `create_file` (completed)" in text
    main, others = text.split("## Other branches")
    assert "make c" in main and "make b" not in main
    assert "make b" in others and "B" in others and "version 1 of 2" in others


def test_markdown_fences_outlast_backticks_in_the_content() -> None:
    record = {
        "title": "t",
        "messages": [
            {
                "role": "assistant",
                "id": "a",
                "content": "",
                "tool_calls": [{"id": "c", "name": "x", "arguments": {}}],
            },
            {"role": "tool", "id": "r", "content": "````\ncode\n````", "tool_call_id": "c", "name": "x"},
        ],
    }
    assert "`````\n````\ncode\n````\n`````" in chat_markdown(record)


def test_import_leaves_out_a_result_of_no_call_and_a_call_with_no_result() -> None:
    document = {
        "format": "agentlite-chat",
        "messages": [
            {"role": "user", "id": "u", "content": "go"},
            {
                "role": "assistant",
                "id": "a",
                "parent": "u",
                "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {}}, {"id": "c2", "name": "x"}],
            },
            {"role": "tool", "id": "t1", "parent": "a", "tool_call_id": "c1", "content": "ok"},
            {"role": "tool", "id": "t9", "parent": "t1", "tool_call_id": "nope", "content": "stray"},
            {"role": "assistant", "id": "b", "parent": "t9", "content": "end"},
        ],
        "selected": {},
    }
    record = read_document(json.dumps(document))
    roles = [(m["role"], m.get("content", "")) for m in record["messages"]]
    assert roles == [("user", "go"), ("assistant", ""), ("tool", "ok"), ("assistant", "end")]
    assert [c["id"] for c in record["messages"][1]["tool_calls"]] == ["c1"]


@pytest.mark.parametrize(
    "text", ["", "[]", "{}", '{"format": "other"}', '{"format": "agentlite-chat"}', "not json"]
)
def test_a_file_that_is_not_a_chat_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ChatFileError):
        read_document(text)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
FIELD = st.sampled_from(["role", "id", "parent", "content", "tool_calls", "tool_call_id", "result", "state"])
MESSAGE = st.dictionaries(
    FIELD, JSON | st.sampled_from(["user", "assistant", "tool", "m1", "m2"]), max_size=8
)


@settings(max_examples=200, deadline=None)
@given(st.lists(MESSAGE, max_size=8), JSON)
def test_a_damaged_chat_file_imports_what_it_can_and_never_crashes(
    messages: list[Any], selected: Any
) -> None:
    text = json.dumps({"format": "agentlite-chat", "messages": messages, "selected": selected})
    record = read_document(text)
    harness = Harness([])
    session = harness.setup()
    session.load_record({**record, "id": "x"})
    session.snapshot()
    chat_markdown(record)
    json.dumps(record)
