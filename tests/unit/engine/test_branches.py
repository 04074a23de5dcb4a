"""The chat as a tree of messages: edit → a new version of a user message, regenerate → a new version of
the answer, switching versions, and the active path as the only history the model sees."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlite.engine.branches import MessageTree
from agentlite.engine.history import Message
from agentlite.engine.session import ChatSession
from tests.unit.engine.support import Harness, calls, say


def sent(harness: Harness, index: int = -1) -> list[tuple[str, str]]:
    """(role, content) of the messages one request sent, without the system prompt; the user's text
    without its context block."""
    body = harness.requests()[index]
    return [(m["role"], _text(m)) for m in body["messages"] if m["role"] != "system"]


def _text(message: dict[str, Any]) -> str:
    content = str(message.get("content") or "")
    return content.rsplit("\n\n", 1)[-1] if message["role"] == "user" else content


def path(chat: ChatSession) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in chat.messages]


def two_turns(*more: Any) -> Harness:
    harness = Harness([say("A1"), say("A2"), *more])

    async def run() -> None:
        await harness.turn("one")
        await harness.turn("two")

    asyncio.run(run())
    return harness


def test_a_tree_grows_on_the_active_path_and_switching_brings_a_whole_branch_back() -> None:
    tree = MessageTree()
    first, answer = Message("user", "one"), Message("assistant", "A1")
    tree.add(first, None)
    tree.add(answer, first)
    edited = Message("user", "uno")
    tree.add(edited, None)  # a new version of the first message
    assert [m.content for m in tree.path()] == ["uno"]
    assert tree.siblings(first.id) == [first.id, edited.id]
    assert [m.content for m in tree.switch(edited.id, 0)] == ["one", "A1"]
    assert [m.content for m in tree.switch(first.id, 1)] == ["uno"]


def test_editing_a_message_sends_only_the_new_branch_and_keeps_the_old_one() -> None:
    harness = two_turns(say("A1 again"))
    chat = harness.chat
    assert chat is not None
    one = chat.messages[0]
    asyncio.run(harness.turn("uno", edit=one.id))
    assert sent(harness) == [("user", "uno")]
    assert path(chat) == [("user", "uno"), ("assistant", "A1 again")]
    assert len(chat.tree.nodes) == 6  # nothing of the old branch was lost
    edited = chat.snapshot()["messages"][0]
    assert (edited["branch"], edited["branches"]) == (2, 2)


def test_switching_back_restores_the_old_branch_for_the_next_request() -> None:
    harness = two_turns(say("A1 again"), say("A3"))
    chat = harness.chat
    assert chat is not None
    one = chat.messages[0]
    asyncio.run(harness.turn("uno", edit=one.id))
    snapshot = asyncio.run(chat.switch_branch(one.id, 0))
    assert [m["content"] for m in snapshot["messages"]] == ["one", "A1", "two", "A2"]
    assert (snapshot["messages"][0]["branch"], snapshot["messages"][0]["branches"]) == (1, 2)
    asyncio.run(harness.turn("three"))
    assert sent(harness) == [
        ("user", "one"),
        ("assistant", "A1"),
        ("user", "two"),
        ("assistant", "A2"),
        ("user", "three"),
    ]


def test_regenerate_answers_the_same_message_again_as_a_new_version_of_the_answer() -> None:
    harness = two_turns(say("A2 again"))
    chat = harness.chat
    assert chat is not None
    before = len(harness.requests())
    asyncio.run(harness.turn("", regenerate=True))
    assert len(harness.requests()) == before + 1  # one round, nothing else
    assert sent(harness) == [("user", "one"), ("assistant", "A1"), ("user", "two")]
    assert path(chat) == [("user", "one"), ("assistant", "A1"), ("user", "two"), ("assistant", "A2 again")]
    assert [m.content for m in chat.tree.nodes.values()].count("two") == 1
    start = [e for e in harness.of("turn_start")][-1]
    assert start["regenerate"] is True and start["text"] == "two"
    answer = chat.snapshot()["messages"][-1]
    assert (answer["content"], answer["branch"], answer["branches"]) == ("A2 again", 2, 2)


def test_a_new_branch_keeps_tool_calls_and_their_results_paired() -> None:
    reply = calls(("create_file", {"path": "/a.txt", "content": "x"}))
    harness = Harness([reply, say("made it"), say("plain")])
    asyncio.run(harness.turn("make a"))
    chat = harness.chat
    assert chat is not None
    asyncio.run(harness.turn("more"))
    asyncio.run(harness.turn("again", edit=chat.messages[-2].id))
    wire = harness.requests()[-1]["messages"]
    call_ids = [c["id"] for m in wire if m["role"] == "assistant" for c in m.get("tool_calls") or ()]
    result_ids = [m["tool_call_id"] for m in wire if m["role"] == "tool"]
    assert call_ids and call_ids == result_ids
    assert [m["role"] for m in wire if m["role"] != "system"] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]


def test_branches_survive_a_save_and_load() -> None:
    harness = two_turns(say("A1 again"))
    chat = harness.chat
    assert chat is not None and harness.engine is not None
    one = chat.messages[0]
    asyncio.run(harness.turn("uno", edit=one.id))
    asyncio.run(chat.switch_branch(one.id, 0))
    again = ChatSession(harness.engine.shared, "c2", lambda _e: None, harness.engine.save_chat)
    again.load_record(chat.to_record())
    assert path(again) == [("user", "one"), ("assistant", "A1"), ("user", "two"), ("assistant", "A2")]
    assert again.snapshot()["messages"] == chat.snapshot()["messages"]
    assert [m["content"] for m in asyncio.run(again.switch_branch(one.id, 1))["messages"]] == [
        "uno",
        "A1 again",
    ]


def test_a_chat_saved_before_branches_loads_as_one_chain() -> None:
    record = {
        "id": "old",
        "title": "old",
        "messages": [
            {"role": "user", "content": "one", "id": "u1", "turn": "t1"},
            {"role": "assistant", "content": "A1", "id": "a1", "turn": "t1"},
            {"role": "user", "content": "two", "id": "u2", "turn": "t2"},
        ],
    }
    harness = Harness([])
    chat = harness.setup()
    chat.load_record(record)
    assert path(chat) == [("user", "one"), ("assistant", "A1"), ("user", "two")]
    assert [m.parent for m in chat.messages] == [None, "u1", "a1"]
    assert all("branch" not in m for m in chat.snapshot()["messages"])


def test_a_branch_cut_before_the_summary_drops_the_summary_of_the_other_branch() -> None:
    harness = two_turns(say("A1 again"))
    chat = harness.chat
    assert chat is not None
    chat.memo.summary, chat.memo.summarized_upto, chat.memo.summary_covers = "old talk", 2, 2
    asyncio.run(harness.turn("uno", edit=chat.messages[0].id))
    assert chat.memo.summary == "" and chat.memo.summarized_upto == 0
    assert "old talk" not in str(harness.requests()[-1]["messages"])


def test_regenerate_in_an_empty_chat_asks_the_model_nothing_and_adds_nothing() -> None:
    harness = Harness([say("never")])
    asyncio.run(harness.turn("", regenerate=True))
    assert harness.requests() == [] and harness.chat is not None and harness.chat.messages == []
    assert harness.last_turn_end()["state"] == "cancelled"
