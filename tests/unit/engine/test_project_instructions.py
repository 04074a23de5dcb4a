"""AGENTS.md: one message right after the unchanged system prompt, in every request of every chat, read
again before each request, with its own share in the context meter; nested files carry their scope."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlite.demo.conversation import Conversation
from agentlite.engine.project_instructions import MAX_CHARS, instruction_paths, instructions_message, render
from agentlite.engine.prompt import system_prompt
from agentlite.engine.turn_request import flatten
from agentlite.workspace import MemoryStorage, Workspace
from tests.unit.engine.support import Harness, say


def test_root_first_then_nested_files_by_depth_each_with_its_scope() -> None:
    entries = [
        {"path": "/src/lib/AGENTS.md", "kind": "file"},
        {"path": "/src/AGENTS.md", "kind": "file"},
        {"path": "/AGENTS.md", "kind": "file"},
        {"path": "/docs/AGENTS.md", "kind": "dir"},
        {"path": "/notes/MY_AGENTS.md", "kind": "file"},
    ]
    assert instruction_paths(entries) == ["/AGENTS.md", "/src/AGENTS.md", "/src/lib/AGENTS.md"]
    text = render([("/AGENTS.md", "Use tabs.\n"), ("/src/AGENTS.md", "Use spaces here.")])
    assert "From /AGENTS.md (applies to the whole workspace):\nUse tabs." in text
    assert "From /src/AGENTS.md (applies to files under /src/):\nUse spaces here." in text
    assert "nearest to the file being worked on wins" in text
    assert render([]) == ""


def test_instructions_over_the_limit_are_cut_with_a_note() -> None:
    text = render([("/AGENTS.md", "x" * (MAX_CHARS + 500)), ("/a/AGENTS.md", "late")])
    assert "was left out" in text and text.count("x") <= MAX_CHARS + 10
    assert "From /a/AGENTS.md" in text  # named, even with nothing left of it


def run_turns(texts: list[str], agents: list[str | None]) -> tuple[Harness, list[dict[str, Any]]]:
    """One turn per text; before each, /AGENTS.md is set to the matching text (None: deleted)."""
    harness = Harness([say(f"answer {i}") for i in range(len(texts))])

    async def scenario() -> None:
        workspace = await Workspace.open(MemoryStorage())
        harness.setup(workspace=workspace)
        for text, content in zip(texts, agents, strict=True):
            if content is None:
                if await workspace.read_bytes("/AGENTS.md") is not None:
                    await workspace.delete("/AGENTS.md")
            else:
                await workspace.write("/AGENTS.md", content)
            await harness.turn(text)

    asyncio.run(scenario())
    return harness, harness.requests()


def test_agents_md_is_a_message_after_the_unchanged_system_prompt_and_edits_apply_next_request() -> None:
    harness, requests = run_turns(["one", "two", "three"], ["Always answer in French.", "Use haiku.", None])
    for request in requests:
        assert request["messages"][0] == {"role": "system", "content": system_prompt("agent")}
    first, second, third = (r["messages"] for r in requests)
    assert first[1]["role"] == "user" and "Always answer in French." in first[1]["content"]
    assert first[1]["content"].startswith("<project-instructions>")
    assert "Use haiku." in second[1]["content"] and "French" not in str(second)
    assert "project-instructions" not in str(third)
    meters = harness.of("context")
    assert meters[0]["instructions"] > 0 and "instructions" not in meters[-1]


def test_the_demo_model_reads_the_request_past_the_instructions_in_chat_mode() -> None:
    history = [*instructions_message("Use tabs."), {"role": "user", "content": "Hello there"}]
    merged = flatten(history)  # Chat mode: one user message
    assert len(merged) == 1
    assert Conversation.read({"messages": merged}).request == "Hello there"
    assert Conversation.read({"messages": history}).request == "Hello there"
