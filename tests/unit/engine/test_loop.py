"""The tool loop: request → stream → tools → results → next request, until an answer or a limit."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import DEFAULT_MAX_ROUNDS
from tests.unit.engine.support import SETTINGS, Harness, answer_when, calls, cut, say, until


def test_a_plain_answer_is_one_round_through_every_state() -> None:
    h = Harness([say("Hello there.")]).run("hi")
    assert h.states() == [
        "planning",
        "requesting",
        "streaming",
        "deciding",
        "responding",
        "completed",
        "idle",
    ]
    assert h.text() == "Hello there."
    start, end = h.of("message_start"), h.of("message_end")
    assert len(start) == len(end) == 1 and end[0] == {
        "kind": "message_end",
        "id": start[0]["id"],
        "state": "done",
    }
    assert h.last_turn_end()["state"] == "completed"
    assert h.kinds()[-1] == "turn_end"
    roles = [m.role for m in h.chat.messages] if h.chat else []
    assert roles == ["user", "assistant"]


def test_tool_results_go_back_and_the_loop_ends_on_a_text_answer() -> None:
    h = Harness([calls(("read_file", {"path": "/a.txt"})), say("It says hi.")]).run("read /a.txt")
    assert h.tools.ran == [("read_file", {"path": "/a.txt", "content": ""})]
    assert "running_tools" in h.states()
    second = h.requests()[1]["messages"]
    assert second[-2]["tool_calls"][0]["function"]["name"] == "read_file"
    assert second[-1]["role"] == "tool" and second[-1]["content"].startswith("read_file ok: /a.txt")
    assert [s for _id, s in h.statuses()] == ["pending", "executing", "completed"]
    assert len(h.of("message_start")) == 2  # one bubble per round


def test_several_calls_run_in_the_order_written() -> None:
    reply = calls(
        ("create_file", {"path": "/1"}), ("edit_file", {"path": "/1"}), ("read_file", {"path": "/1"})
    )
    h = Harness([reply, say("done")]).run("go")
    assert [name for name, _args in h.tools.ran] == ["create_file", "edit_file", "read_file"]
    tool_messages = [m for m in h.requests()[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_demo_1", "call_demo_2", "call_demo_3"]


def test_independent_reads_overlap_but_writes_do_not() -> None:
    reads = calls(*[("read_file", {"path": f"/{i}"}) for i in range(3)])
    h = Harness([reads, say("ok")]).run("read all")
    assert h.tools.most_active == 3
    writes = calls(*[("edit_file", {"path": f"/{i}"}) for i in range(3)])
    h2 = Harness([writes, say("ok")]).run("edit all")
    assert h2.tools.most_active == 1


def test_a_failed_tool_goes_to_the_model_which_decides() -> None:
    h = Harness([calls(("missing_file", {"path": "/x"})), say("That file does not exist.")]).run("x")
    assert [s for _id, s in h.statuses()][-1] == "failed"
    tool = h.requests()[1]["messages"][-1]
    assert tool["role"] == "tool" and "no such file" in tool["content"]
    assert h.last_turn_end()["state"] == "completed"
    assert not h.of("turn_error")


def test_the_round_limit_stops_the_loop_and_says_why() -> None:
    looping = [calls(("read_file", {"path": f"/{i}"})) for i in range(10)]
    h = Harness(looping)
    chat = h.setup()
    chat.configure(max_rounds=3)
    h.run("go")
    assert len(h.requests()) == 3
    stopped = h.of("stopped")
    assert stopped and stopped[0]["reason"] == "max_rounds"
    assert h.last_turn_end()["state"] == "completed"


def test_the_default_round_limit_lets_list_read_write_finish() -> None:
    assert DEFAULT_MAX_ROUNDS >= 4
    script = [calls(("list_directory", {"path": "/src"})), calls(("read_file", {"path": "/src/App.tsx"})),
              calls(("edit_file", {"path": "/src/App.tsx"})), say("Title changed.")]  # fmt: skip
    h = Harness(script).run("change the title")
    assert not h.of("stopped") and h.text().endswith("Title changed.")


def test_length_continues_in_the_same_bubble_at_most_five_times() -> None:
    h = Harness([cut(f"part {i} ") for i in range(6)] + [say("never")]).run("long")
    assert len(h.requests()) == 6
    assert len(h.of("message_start")) == 1
    assert h.of("stopped")[0]["reason"] == "length"
    notes = [m for m in h.chat.messages if m.hidden] if h.chat else []
    assert len(notes) == 5 and "cut off by the output limit" in notes[0].content


def test_length_then_a_normal_finish_completes() -> None:
    h = Harness([cut("The first half, "), say("and the second half.")]).run("long")
    assert h.text() == "The first half, and the second half."
    assert not h.of("stopped")


def test_requests_only_append_the_system_prompt_is_sent_once() -> None:
    h = Harness([calls(("read_file", {"path": "/a"})), say("one"), say("two")])
    h.setup()

    async def two_turns() -> None:
        await h.turn("first")
        await h.turn("second")

    asyncio.run(two_turns())
    first, second, third = (r["messages"] for r in h.requests())
    assert second[: len(first)] == first
    assert third[: len(second)] == second
    assert sum(m["role"] == "system" for m in third) == 1


def test_chat_mode_offers_no_tools() -> None:
    h = Harness([say("Just talking.")]).run("hi", mode="chat")
    body = h.requests()[0]
    assert "tools" not in body
    assert "cannot change the user's files" in body["messages"][0]["content"]


def test_a_forced_tool_is_forced_until_it_has_been_called() -> None:
    h = Harness([calls(("list_directory", {"path": "/"})), say("done")]).run("look", tool="list_directory")
    first, second = h.requests()
    assert first["tool_choice"] == {"type": "function", "function": {"name": "list_directory"}}
    assert second["tool_choice"] == "auto"


def test_a_forced_tool_in_a_prompt_dialect_is_an_instruction() -> None:
    json_settings = replace(SETTINGS, dialect="json")
    h = Harness([say("ok")]).run("look", json_settings, tool="list_directory")
    user = h.requests()[0]["messages"][-1]["content"]
    assert "The user chose the tool list_directory" in user


def test_each_turn_has_an_id_that_tools_and_events_share() -> None:
    seen: list[str] = []
    h = Harness([calls(("read_file", {"path": "/a"})), say("ok")])
    h.setup(context_factory=lambda turn, _open, _save: seen.append(turn) or {"turn": turn})
    h.run("go")
    turn = h.of("turn_start")[0]["turn"]
    assert seen == [turn]
    assert h.of("message_start")[0]["turn"] == turn
    assert h.last_turn_end()["turn"] == turn


def _loop_harness(responses: list[Any], choice: str) -> Harness:
    h = Harness(responses)
    h.on_event = answer_when("decision", lambda chat, _event: chat.decide(choice))(h)
    return h


def test_a_repeated_tool_only_reply_warns_at_the_third_call_and_stops_at_the_fifth() -> None:
    same = [calls(("read_file", {"path": "/a"})) for _ in range(6)]
    h = _loop_harness(same, "cancel").run("loop")
    assert [s["reason"] for s in h.of("stopped")] == ["loop"], "not stopped as a repeated reply"
    assert len(h.requests()) == 5 and len(h.tools.ran) == 4
    warned = [
        i for i, r in enumerate(h.requests()) if "Note: this is call 3 of read_file" in str(r["messages"])
    ]
    assert warned[0] == 3, "the warning reached the model with the third result"
    refused = [e for e in h.of("tool_status") if e["status"] == "rejected"]
    assert len(refused) == 1 and refused[0]["result"]["errorType"] == "rejected"
    message = h.of("stopped")[0]["message"]
    assert refused[0]["reason"] == message and "5 times" in message
    decision = h.of("decision")[0]
    assert (decision["reason"], decision["options"], decision["message"]) == (
        "loop",
        ["retry", "cancel"],
        message,
    )
    assert h.last_turn_end()["state"] == "cancelled"
    assert h.chat is not None and [m.status for m in h.chat.messages if m.role == "tool"][-1] == "rejected"


def test_after_a_loop_stop_the_user_may_let_the_agent_go_on() -> None:
    same = [calls(("read_file", {"path": "/a"})) for _ in range(5)]
    h = _loop_harness([*same, calls(("read_file", {"path": "/a"})), say("It says hi.")], "retry").run("loop")
    assert [e["choice"] for e in h.of("decision_made")] == ["retry"]
    assert len(h.tools.ran) == 5, "after going on, the call runs again (the counts start again)"
    assert "chose to let you go on" in h.requests()[5]["messages"][-1]["content"]
    assert h.text().endswith("It says hi.") and h.last_turn_end()["state"] == "completed"
    assert h.states()[h.states().index("deciding") :].count("error") == 0, "a loop stop is not an error"


def test_a_new_message_dismisses_a_loop_question() -> None:
    same = [calls(("read_file", {"path": "/a"})) for _ in range(5)]
    h = Harness([*same, say("Next question answered.")])
    chat = h.setup()

    async def scenario() -> None:
        assert h.transport is not None
        chat.start_turn("loop", ModelLink.of(SETTINGS, h.transport))
        await until(lambda: bool(h.of("decision")))
        chat.start_turn("something else", ModelLink.of(SETTINGS, h.transport))
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert [e["state"] for e in h.of("turn_end")] == ["completed", "completed"]
    assert h.text().endswith("Next question answered.")


def test_the_continuation_limit_counts_length_rounds_in_a_row() -> None:
    script = [*[cut(f"a{i} ") for i in range(3)], calls(("read_file", {"path": "/x"})),
              *[cut(f"b{i} ") for i in range(3)], say("end.")]  # fmt: skip
    h = Harness(script).run("long")
    assert not h.of("stopped"), "six continuations, but never more than five in a row"
    assert len(h.requests()) == 8 and h.text().endswith("end.")


def test_each_reply_is_recorded_once_even_in_the_memory_of_a_freed_one() -> None:
    """CPython gives a freed reply's address to the next one; a reply must be told apart by itself, or
    a round would silently miss from the history and the model would redo what it already did."""
    from agentlite.engine.reply import Reply
    from agentlite.engine.turn_deps import TurnOptions

    harness = Harness()
    chat = harness.setup()
    assert harness.transport is not None
    records = chat.new_turn("hi", ModelLink.of(SETTINGS, harness.transport), TurnOptions()).records
    first = Reply(text=["first round"], received=True)
    records.record_reply(first, "done", [])
    del first
    second = Reply(text=["second round"], received=True)
    records.record_reply(second, "done", [])
    records.record_reply(second, "done", [])
    assert [m.content for m in chat.messages if m.role == "assistant"] == ["first round", "second round"]
