"""Stop at every point of a turn: the partial answer is kept, nothing half-done runs, the chat is idle."""

from __future__ import annotations

import asyncio
from typing import Any

from agentlite.demo.replies import text_reply
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import ChatSession
from agentlite.transport import HttpRequest, ScriptedResponse
from tests.unit.engine.support import SETTINGS, Harness, calls, http, say, until


def stop_when(h: Harness, ready: Any, responses: Any) -> Harness:
    """Run a turn, stop it when `ready(h)` holds, and wait for it to wind down."""
    h.responses = responses
    chat: ChatSession = h.setup()

    async def scenario() -> None:
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: ready(h))
        chat.stop()
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert chat.state.value == "idle" and not chat.busy
    assert h.last_turn_end()["state"] == "cancelled"
    assert h.states()[-2:] == ["cancelled", "idle"]
    return h


def test_stop_while_requesting() -> None:
    never = asyncio.Event()

    async def hang(_request: HttpRequest) -> ScriptedResponse:
        await never.wait()
        return say("never")

    h = stop_when(Harness(), lambda h: "requesting" in h.states(), hang)
    assert [e["state"] for e in h.of("message_end")] == ["interrupted"]
    assert h.chat is not None and [m.role for m in h.chat.messages] == ["user"]


def test_stop_while_streaming_keeps_the_partial_answer() -> None:
    slow = ScriptedResponse(body=text_reply("a b c d e f g h i j k l"), delay=0.001)
    h = stop_when(Harness(), lambda h: len(h.of("text")) >= 3, [slow])
    assert h.of("message_end")[-1]["state"] == "interrupted"
    assert h.chat is not None
    kept = h.chat.messages[-1]
    assert kept.role == "assistant" and kept.state == "interrupted" and kept.content == h.text()
    assert "l" not in kept.content.split()


def test_a_tool_call_that_was_not_complete_never_runs() -> None:
    body = calls(("create_file", {"path": "/never"})).body
    half = ScriptedResponse(body=list(body[:-2]) + [b""] * 200, delay=0.001)
    h = stop_when(Harness(), lambda h: bool(h.of("tool_started")), [half])
    assert h.tools.ran == []
    assert not h.of("tool_status")


def test_stop_while_a_tool_runs_lets_a_file_operation_finish() -> None:
    h = Harness()
    h.tools.gates["create_file"] = gate = asyncio.Event()

    def ready(h: Harness) -> bool:
        if any(e.get("status") == "executing" for e in h.of("tool_status")):
            asyncio.get_running_loop().call_later(0, gate.set)
            return True
        return False

    h = stop_when(h, ready, [calls(("create_file", {"path": "/f"})), say("never")])
    assert h.tools.ran == [("create_file", {"path": "/f", "content": ""})]
    assert h.of("tool_status")[-1]["status"] == "completed"
    assert h.chat is not None and [m.role for m in h.chat.messages] == ["user", "assistant", "tool"]
    assert len(h.requests()) == 1


def test_stop_while_code_runs_cancels_it_cleanly() -> None:
    h = Harness([calls(("shell_exec", {})), say("never")])
    h.tools.gates["shell_exec"] = asyncio.Event()  # the command never finishes by itself
    chat = h.setup()
    chat.configure(auto_approve=["shell"])

    async def scenario() -> None:
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: any(e.get("status") == "executing" for e in h.of("tool_status")))
        chat.stop()
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    final = h.of("tool_status")[-1]
    assert final["status"] == "failed" and "Cancelled" in final["result"]["message"]
    assert h.tools.ran == [] and chat.state.value == "idle"
    assert h.last_turn_end()["state"] == "cancelled"


def test_stop_while_awaiting_approval_rejects_the_call() -> None:
    h = stop_when(Harness(), lambda h: bool(h.of("approval")), [calls(("delete_file", {"path": "/a"}))])
    assert h.tools.ran == []
    assert h.of("tool_status")[-1]["status"] == "rejected"
    assert h.chat is not None
    assert "stopped" in h.chat.messages[-1].content


def test_stop_while_waiting_to_retry() -> None:
    h = Harness()
    gate = asyncio.Event()

    async def slow_sleep(seconds: float) -> None:
        h.sleeps.append(seconds)
        await gate.wait()

    h.responses = [http(500), say("never")]
    chat = h.setup()
    assert h.engine is not None
    h.engine.sleep = slow_sleep

    async def scenario() -> None:
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: bool(h.of("retry")))
        chat.stop()
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert len(h.requests()) == 1
    assert h.last_turn_end()["state"] == "cancelled"


def test_stop_while_the_user_decides() -> None:
    h = stop_when(Harness(), lambda h: bool(h.of("decision")), [http(401)])
    assert h.states()[-3:] == ["error", "cancelled", "idle"]


def test_stop_while_planning_a_summary() -> None:
    never = asyncio.Event()
    h = Harness()

    async def respond(request: HttpRequest) -> ScriptedResponse:
        if "You condense conversations" in str((request.body or {}).get("messages")):
            await never.wait()
        return say("x" * 10)

    chat = h.setup()
    chat.configure(context_window=1024, reserve=1)
    for index in range(30):
        chat.add(_message("user" if index % 2 == 0 else "assistant", "word " * 60))
    h.responses = respond
    h.transport = None
    from agentlite.transport import ScriptedTransport

    h.transport = ScriptedTransport(respond)

    async def scenario() -> None:
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: len(h.transport.requests) == 1 if h.transport else False)
        assert chat.state.value == "planning"
        chat.stop()
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert chat.state.value == "idle"
    assert h.last_turn_end()["state"] == "cancelled"


def test_a_new_message_while_deciding_skips_the_decision_and_runs_next() -> None:
    h = Harness([http(401), say("second answer")])
    chat = h.setup()

    async def scenario() -> None:
        chat.start_turn("first", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: bool(h.of("decision")))
        chat.start_turn("second", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert [e["choice"] for e in h.of("decision_made")] == ["skip"]
    assert h.text() == "second answer"


def _message(role: str, content: str) -> Any:
    from agentlite.engine.history import Message

    return Message(role, content)


def test_stop_also_stops_a_turn_queued_behind_the_running_one() -> None:
    never = asyncio.Event()

    async def hang(_request: HttpRequest) -> ScriptedResponse:
        await never.wait()
        return say("never")

    h = Harness(hang)
    chat = h.setup()

    async def scenario() -> None:
        chat.start_turn("first", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        chat.start_turn("second", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: "requesting" in h.states())
        first, second = list(chat.tasks)
        chat.stop()
        await asyncio.gather(first, second)

    asyncio.run(scenario())
    assert [e["state"] for e in h.of("turn_end")] == ["cancelled", "cancelled"]
    assert chat.state.value == "idle" and not chat.busy
    assert len(h.of("turn_start")) == 1


def test_a_second_stop_does_not_cut_the_clean_up_short() -> None:
    h = Harness([calls(("create_file", {"path": "/f"})), say("never")])
    h.tools.gates["create_file"] = gate = asyncio.Event()
    chat = h.setup()

    async def scenario() -> None:
        chat.start_turn("go", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: any(e.get("status") == "executing" for e in h.of("tool_status")))
        chat.stop()
        await until(lambda: chat.turn is not None and chat.turn.winding_down)
        chat.stop()  # pressed again while the file operation finishes
        gate.set()
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert h.tools.ran and h.of("tool_status")[-1]["status"] == "completed"
    assert h.last_turn_end()["state"] == "cancelled" and chat.state.value == "idle"
