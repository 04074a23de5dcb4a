"""Commit messages of a git export from the chats: the request's first line, then the turn's tool calls."""

from __future__ import annotations

from agentlite.engine.commit_notes import SUBJECT_CHARS, commit_notes


def test_a_turn_gets_its_request_and_its_tool_calls() -> None:
    chat = {
        "messages": [
            {"role": "user", "content": "\n  Create a Button component\nwith a label", "turn": "t1"},
            {"role": "user", "content": "continue", "turn": "t1", "hidden": True},
            {
                "role": "assistant",
                "turn": "t1",
                "tool_calls": [
                    {
                        "id": "a",
                        "name": "create_file",
                        "arguments": {"path": "/src/Button.tsx", "content": "x"},
                    },
                    {"id": "b", "name": "move_file", "arguments": {"source": "/a", "destination": "/b"}},
                ],
            },
            {"role": "tool", "turn": "t1", "name": "create_file", "content": "ok"},
            {"role": "user", "content": "x" * 200, "turn": "t2"},
            {"role": "assistant", "content": "no turn id"},
        ]
    }
    notes = commit_notes([chat, {"messages": None}])
    assert notes["t1"] == (
        "Create a Button component\n\nTool calls:\n- create_file /src/Button.tsx\n- move_file /a /b"
    )
    assert len(notes["t2"]) == SUBJECT_CHARS and notes["t2"].endswith("…")
    assert set(notes) == {"t1", "t2"}


def test_a_regenerated_answer_takes_the_request_it_answers() -> None:
    chat = {
        "messages": [
            {"id": "u", "role": "user", "content": "Write a poem", "turn": "t1"},
            {"id": "a1", "role": "assistant", "content": "one", "turn": "t1", "parent": "u"},
            {"id": "a2", "role": "assistant", "content": "two", "turn": "t2", "parent": "u"},
            {"id": "x", "role": "assistant", "content": "orphan", "turn": "t3", "parent": "x"},
        ]
    }
    notes = commit_notes([chat])
    assert notes["t1"] == notes["t2"] == "Write a poem"
    assert "t3" not in notes
