"""The context budget: stubs, summaries, pinned references, truncation; the history itself never shrinks."""

from __future__ import annotations

import asyncio

from agentlite.engine.budget import (
    VERBATIM,
    Budget,
    Memo,
    facts_from_summary,
    fallback_summary,
    fit,
    summary_request,
    window,
)
from agentlite.engine.history import Message
from agentlite.engine.model_link import ModelLink
from agentlite.engine.prompt import Reference
from agentlite.engine.tokens import TokenCounter
from tests.unit.engine.support import Harness, calls, say

BIG = "lorem ipsum dolor sit amet " * 60  # ~1,600 characters


def conversation(turns: int, result: str = BIG) -> list[Message]:
    messages: list[Message] = []
    for index in range(turns):
        messages.append(Message("user", f"request {index}"))
        call = {"id": f"c{index}", "name": "read_file", "arguments": {"path": f"/{index}"}}
        messages.append(Message("assistant", "", tool_calls=[call]))
        messages.append(Message("tool", result, tool_call_id=f"c{index}", name="read_file"))
        messages.append(Message("assistant", f"answer {index}"))
    return messages


def run_fit(messages: list[Message], memo: Memo, window_tokens: int) -> tuple[int, list[list[Message]]]:
    asked: list[list[Message]] = []

    async def summarize(previous: str, chunk: list[Message]) -> str:
        asked.append(chunk)
        return f"{previous} summary of {len(chunk)}".strip()

    budget = Budget(TokenCounter(), window_tokens, reserve=1)
    report = asyncio.run(fit(messages, memo, "system", budget, summarize))
    return report.used, asked


def test_within_budget_nothing_changes() -> None:
    messages, memo = conversation(3), Memo()
    run_fit(messages, memo, 100_000)
    assert not any(m.stub for m in messages) and memo.summarized_upto == 0


def test_old_tool_results_shrink_to_stubs_first() -> None:
    messages, memo = conversation(10), Memo()
    used, asked = run_fit(messages, memo, 3_000)
    stubbed = [i for i, m in enumerate(messages) if m.stub]
    assert stubbed and max(stubbed) < len(messages) - VERBATIM
    assert asked == [] and used <= 3_000
    wire = window(messages, memo)
    assert "were left out to save context" in wire[2]["content"]
    assert messages[2].content == BIG  # the history keeps the full result


def test_then_a_summary_replaces_the_oldest_messages_keeping_the_last_twenty() -> None:
    messages, memo = conversation(15), Memo()
    run_fit(messages, memo, 1_500)
    assert memo.summarized_upto > 0
    assert len(messages) - memo.summarized_upto >= VERBATIM
    assert memo.summarized_upto % 10 == 0  # whole steps of 10 messages
    wire = window(messages, memo)
    assert wire[0]["content"].startswith("<context>\nSummary of the earlier conversation:")
    assert len(messages) == 60


def test_a_model_summary_that_covers_the_messages_saves_the_request() -> None:
    messages, memo = conversation(15), Memo(summary="Goal: x", summary_covers=60)
    _used, asked = run_fit(messages, memo, 1_500)
    assert asked == [] and memo.summarized_upto > 0 and memo.summary == "Goal: x"


def test_truncation_keeps_system_summary_pinned_and_the_last_messages() -> None:
    messages = conversation(5)
    memo = Memo(summary="Goal: g", pinned=[Reference("/spec.md", "the spec")])
    wire = window(messages, memo, keep=5)
    assert "Summary of the earlier conversation" in wire[0]["content"] and "the spec" in wire[0]["content"]
    assert len(wire) <= 6
    assert wire[1]["role"] != "tool"  # never a result without its call


def test_summary_requests_and_facts() -> None:
    request = summary_request("Goal: old", conversation(1))
    assert request[0]["content"].startswith("You condense conversations")
    assert "Summary so far:\nGoal: old" in request[1]["content"]
    assert "[assistant, calling read_file(path='/0')]" in request[1]["content"]
    text = "Goal: a\nDone: b\nTo do: c\nFacts to remember:\n- Uses pnpm\n- Deploys on Fridays\nOther: x"
    assert facts_from_summary(text) == ["Uses pnpm", "Deploys on Fridays"]
    assert facts_from_summary("Facts to remember: none") == []


def test_the_fallback_summary_lists_requests_and_actions() -> None:
    text = fallback_summary("", conversation(2))
    assert "request 0" in text and "read_file: ok" in text and text.startswith("Goal:")


def test_a_chat_over_budget_asks_for_one_summary_and_sends_less() -> None:
    summary_reply = say("Goal: keep going\nDone: read files\nTo do: answer\nFacts to remember:\n- Likes tea")
    h = Harness([summary_reply, say("fine")])
    chat = h.setup(storage=_storage())
    chat.configure(context_window=2_000, reserve=1)
    for message in conversation(12):
        chat.add(message)
    h.run("next")
    bodies = h.requests()
    assert bodies[0]["messages"][0]["content"].startswith("You condense conversations")
    assert "tools" not in bodies[0]
    assert "Summary of the earlier conversation" in bodies[1]["messages"][1]["content"]
    assert h.of("summary")[0]["source"] == "model"
    assert h.engine is not None and h.engine.memory is not None
    assert [m["text"] for m in asyncio.run(h.engine.memory.all())] == ["Likes tea"]


def test_a_failed_summary_request_falls_back_without_the_model() -> None:
    from tests.unit.engine.support import http

    h = Harness([http(500), say("fine")])
    chat = h.setup()
    chat.configure(context_window=2_000, reserve=1)
    for message in conversation(12):
        chat.add(message)
    h.run("next")
    assert h.of("summary")[0]["source"] == "fallback"
    assert h.text() == "fine"


def test_conversation_summary_from_the_model_is_kept() -> None:
    h = Harness([calls(("read_file", {"path": "/a"})), say("ok")])
    chat = h.setup()
    chat.save_model_summary(type("S", (), {"text": "Goal: g\nDone: d\nTo do: t"})())
    assert chat.memo.summary.startswith("Goal: g") and chat.memo.summary_covers == 0


def test_the_meter_reports_estimates_and_provider_usage() -> None:
    from agentlite.demo.replies import chunk
    from agentlite.transport import ScriptedResponse

    usage = b'data: {"choices": [], "usage": {"prompt_tokens": 900, "completion_tokens": 10}}\n\n'
    reply = ScriptedResponse(
        body=[chunk({"content": "hi"}), chunk({}, finish="stop"), usage, b"data: [DONE]\n\n"]
    )
    h = Harness([reply]).run()
    meters = h.of("context")
    assert meters[0]["source"] == "estimate" and meters[0]["window"] == 32_768
    assert meters[-1] == {
        "kind": "context",
        "used": 910,
        "window": 32_768,
        "limit": 24_576,
        "source": "provider",
    }
    assert h.chat is not None and h.chat.counter.ratio != 1.0


def test_references_are_sent_once_and_pinned() -> None:
    h = Harness([say("seen")]).run("look", references=[{"path": "/spec.md", "content": "SPEC TEXT"}])
    user = h.requests()[0]["messages"][-1]["content"]
    assert "Reference 1: file (Source: /spec.md)\nSPEC TEXT" in user and user.endswith("look")
    assert h.chat is not None and [r.path for r in h.chat.memo.pinned] == ["/spec.md"]


def _storage():  # type: ignore[no-untyped-def]
    from agentlite.workspace.storage import MemoryStorage

    storage = MemoryStorage()
    storage.data.setdefault("chats", {})
    storage.data.setdefault("memory", {})
    return storage


def test_the_conversation_summary_tool_stores_the_models_summary() -> None:
    from agentlite.engine import Engine
    from agentlite.settings import Settings
    from agentlite.transport import ScriptedTransport
    from agentlite.workspace import MemoryStorage, Workspace

    summary = "Goal: build the app\nDone: read the files\nTo do: write tests"

    async def scenario() -> tuple[str, int]:
        workspace = await Workspace.open(MemoryStorage())
        engine = Engine(workspace=workspace)
        chat = engine.chat("c", lambda _e: None)
        transport = ScriptedTransport.of(calls(("conversation_summary", {"summary": summary})), say("Noted."))
        chat.start_turn("summarize please", ModelLink.of(Settings(dialect="native"), transport))
        assert chat.task is not None
        await chat.task
        return chat.memo.summary, chat.memo.summary_covers

    text, covers = asyncio.run(scenario())
    assert text == summary and covers == 1  # everything before the reply that called it
