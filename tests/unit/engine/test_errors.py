"""Every branch of the strategy matrix, end to end through a chat, and the user's decisions."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from agentlite.demo.replies import text_reply
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import ChatSession
from agentlite.transport import ScriptedResponse
from tests.unit.engine.support import SETTINGS, Harness, answer_when, calls, dropped, http, say


def deciding(choice: str) -> Any:
    return answer_when("decision", lambda chat, _event: chat.decide(choice))


def harness(responses: list[ScriptedResponse], choice: str | None = None) -> Harness:
    h = Harness(responses)
    if choice is not None:
        h.on_event = deciding(choice)(h)
    return h


def test_rate_limit_waits_as_told_then_succeeds() -> None:
    h = harness([http(429, "slow down", retry_after="4"), say("ok")]).run()
    assert h.sleeps == [4.0]
    retry = h.of("retry")[0]
    assert (retry["attempt"], retry["of"], retry["wait_s"], retry["error_type"]) == (1, 2, 4.0, "rate_limit")
    assert h.text() == "ok" and not h.of("turn_error")
    assert h.states()[:4] == ["planning", "requesting", "requesting", "streaming"]


def test_rate_limit_without_retry_after_backs_off_twice_then_asks() -> None:
    h = harness([http(429), http(429), http(429)], choice="cancel").run()
    assert len(h.sleeps) == 2 and h.sleeps[0] < h.sleeps[1]
    decision = h.of("decision")[0]
    assert decision["error_type"] == "rate_limit"
    assert decision["options"] == ["retry", "alternative", "skip", "cancel"]
    assert h.of("turn_error")[0]["error_type"] == "rate_limit"
    assert h.last_turn_end()["state"] == "cancelled"
    assert h.states()[-3:] == ["error", "cancelled", "idle"]


@pytest.mark.parametrize(("status", "kind"), [(500, "server"), (504, "timeout")])
def test_server_and_timeout_retry_twice_with_backoff(status: int, kind: str) -> None:
    h = harness([http(status), http(status), say("back")]).run()
    assert [r["error_type"] for r in h.of("retry")] == [kind, kind]
    assert h.text() == "back"


def test_network_failure_before_any_byte_is_a_plain_resend_in_the_same_bubble() -> None:
    early = dropped("never shown", after=0)
    h = harness([early, say("fine")]).run()
    assert h.text() == "fine"
    assert len(h.of("message_start")) == 1
    assert h.requests()[0] == h.requests()[1]


def test_a_dropped_stream_keeps_the_partial_answer_and_never_replays_it() -> None:
    h = harness([dropped("one two three four five six", after=3), say("four five six.")]).run()
    ends = [e["state"] for e in h.of("message_end")]
    assert ends == ["interrupted", "done"]
    assert h.chat is not None
    partial = h.chat.messages[1]
    assert partial.role == "assistant" and partial.state == "interrupted" and partial.content == "one two"
    resent = h.requests()[1]["messages"]
    assert resent[-2] == {"role": "assistant", "content": "one two"}
    assert "connection dropped" in resent[-1]["content"]
    assert [m.role for m in h.chat.messages].count("assistant") == 2


def test_auth_is_not_retried_and_asks_for_the_key() -> None:
    h = harness([http(401, "bad key")], choice="skip").run()
    assert not h.of("retry")
    decision = h.of("decision")[0]
    assert decision["settings"] is True and decision["options"] == ["retry", "skip", "cancel"]
    assert "Settings" in decision["advice"]
    assert h.last_turn_end()["state"] == "completed"  # skipped: the turn ends, nothing lost


def test_retry_after_fixing_the_key_succeeds() -> None:
    h = harness([http(401, "bad key"), say("now it works")], choice="retry").run()
    assert h.text() == "now it works"
    assert [e["choice"] for e in h.of("decision_made")] == ["retry"]


def test_context_length_truncates_to_ten_then_five_messages() -> None:
    history = [say(f"answer {i}") for i in range(8)]
    too_long = [http(400, "maximum context length exceeded") for _ in range(2)]
    h = Harness([*history, *too_long, say("fits now")])
    chat = h.setup()

    async def scenario() -> None:
        for i in range(8):
            await h.turn(f"question {i}")
        await h.turn("the big one")

    import asyncio

    asyncio.run(scenario())
    sent = [len(r["messages"]) for r in h.requests()[-3:]]
    assert sent[0] > sent[1] > sent[2]
    assert sent[1] == 1 + 10 + 0 or sent[1] == 1 + 11  # system + (summary preface) + last 10
    assert sent[2] <= 1 + 1 + 5
    assert h.text().endswith("fits now")
    assert len(chat.messages) == 18  # nothing deleted


def test_invalid_calls_are_sent_back_once_then_the_user_decides() -> None:
    h = harness([_bad(), _bad()], choice="skip").run()
    assert len(h.requests()) == 2
    corrected = h.requests()[1]["messages"]
    assert corrected[-2]["role"] == "tool" and "could not be read" in corrected[-2]["content"]
    assert "exactly in the required format" in corrected[-1]["content"]
    assert h.of("decision")[0]["error_type"] == "invalid_format"
    assert h.last_turn_end()["state"] == "completed"


def test_invalid_format_alternative_switches_the_dialect() -> None:
    h = harness([_bad(), _bad(), say("plain now")], choice="alternative").run()
    assert h.of("dialect")[0]["dialect"] == "json"
    assert "tools" not in h.requests()[2]
    assert "## How to call a tool" in h.requests()[2]["messages"][0]["content"]


def test_an_empty_reply_is_nudged_once_then_the_user_decides() -> None:
    h = harness([_empty(), _empty(), say("here")], choice="alternative").run()
    assert "Your last reply was empty" in h.requests()[1]["messages"][-1]["content"]
    assert h.of("decision")[0]["error_type"] == "empty_result"
    assert "tools" not in h.requests()[2]  # the alternative: answer without tools
    assert h.text() == "here"


def test_a_protocol_error_goes_straight_to_the_user() -> None:
    h = harness([http(400, "unknown parameter foo")], choice="cancel").run()
    assert not h.of("retry")
    assert h.of("decision")[0]["error_type"] == "protocol"


def test_auto_dialect_falls_back_to_json_when_tools_are_rejected() -> None:
    auto = replace(SETTINGS, dialect="auto")
    h = harness([http(400, "this model does not support tools"), say("json it is")]).run("hi", auto)
    assert "tools" in h.requests()[0] and "tools" not in h.requests()[1]
    assert h.of("dialect")[0]["dialect"] == "json"
    assert h.engine is not None and h.engine.dialects.resolve("auto", auto.base_url, auto.model) == "json"


def test_auto_dialect_learns_from_calls_written_as_text() -> None:
    auto = replace(SETTINGS, dialect="auto")
    text_call = say('{"tool": "read_file", "arguments": {"path": "/a"}}')
    h = harness([text_call, calls(("read_file", {"path": "/a"}), dialect="json"), say("done")]).run("x", auto)
    assert h.of("dialect")[0]["dialect"] == "json"
    assert h.tools.ran and h.text().endswith("done")


def test_alternative_for_a_transient_failure_compacts_the_request() -> None:
    import asyncio

    earlier = [say(f"answer {i}") for i in range(4)]
    h = harness([*earlier, http(503), http(503), http(503), say("Goal: x\nDone: y\nTo do: z"), say("ok")],
                choice="alternative")  # fmt: skip
    h.setup()

    async def scenario() -> None:
        for i in range(4):
            await h.turn(f"question {i}")
        await h.turn("now")

    asyncio.run(scenario())
    assert h.text().endswith("ok")
    summary = h.of("summary")[0]
    assert summary["source"] == "model" and summary["covered"] > 0
    last = h.requests()[-1]["messages"]
    assert "Summary of the earlier conversation" in last[1]["content"]
    assert len(last) < len(h.requests()[-3]["messages"])


def test_skip_after_tools_ran_keeps_their_results() -> None:
    h = harness(
        [calls(("create_file", {"path": "/n"})), http(500), http(500), http(500)], choice="skip"
    ).run()
    assert h.tools.ran == [("create_file", {"path": "/n", "content": ""})]
    assert h.chat is not None and [m.role for m in h.chat.messages] == ["user", "assistant", "tool"]
    assert h.last_turn_end()["state"] == "completed"


def test_a_decision_waits_until_the_user_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from tests.unit.engine.support import until

    h = Harness([http(401), say("ok")])
    chat: ChatSession = h.setup()

    async def scenario() -> None:
        chat.start_turn("hi", ModelLink.of(SETTINGS, h.transport))  # type: ignore[arg-type]
        await until(lambda: bool(h.of("decision")))
        assert chat.busy and chat.state.value == "error"
        assert not chat.decide("nonsense")
        assert chat.decide("retry")
        assert chat.task is not None
        await chat.task

    asyncio.run(scenario())
    assert h.text() == "ok"


def _bad() -> ScriptedResponse:
    return ScriptedResponse(body=_native_bad_call())


def _empty() -> ScriptedResponse:
    return ScriptedResponse(body=text_reply(""))


def _native_bad_call() -> list[bytes]:
    from agentlite.demo.replies import chunk

    first = {
        "index": 0,
        "id": "c1",
        "type": "function",
        "function": {"name": "read_file", "arguments": '{"pa'},
    }
    return [chunk({"tool_calls": [first]}), chunk({}, finish="tool_calls"), b"data: [DONE]\n\n"]


def _error_first() -> ScriptedResponse:
    return ScriptedResponse(body=[b'data: {"error": {"message": "overloaded", "code": 503}}\n\n'])


def test_an_error_event_before_any_output_is_a_plain_resend_without_a_cut_off_note() -> None:
    from agentlite.engine.chats import PREFIX
    from agentlite.workspace import MemoryStorage

    backend = MemoryStorage()
    backend.data.setdefault("chats", {})
    h = Harness([_error_first(), say("fine")])
    h.setup(storage=backend)
    h.run()
    assert [r["error_type"] for r in h.of("retry")] == ["server"]
    assert h.requests()[0] == h.requests()[1], "nothing was received: the same request again"
    assert [e["state"] for e in h.of("message_end")] == ["done"] and len(h.of("message_start")) == 1
    saved = json.loads(backend.data["chats"][PREFIX + "c1"])["messages"]
    assert [(m["role"], m.get("state", "done")) for m in saved] == [("user", "done"), ("assistant", "done")]
    assert not any("cut off" in m["content"] for m in saved)


def test_an_error_event_before_any_output_ends_as_an_error_bubble_when_retries_run_out() -> None:
    h = harness([_error_first(), _error_first(), _error_first()], choice="skip").run()
    assert [e["state"] for e in h.of("message_end")] == ["error"]
    assert h.chat is not None and [m.role for m in h.chat.messages] == ["user"]


def test_context_length_cuts_keep_the_turns_request_and_its_references() -> None:
    import asyncio

    reads = [calls(("read_file", {"path": f"/{i}"})) for i in range(6)]
    too_long = [http(400, "maximum context length exceeded") for _ in range(2)]
    h = Harness([say("noted"), *reads, *too_long, say("fits now")])
    h.setup()

    async def scenario() -> None:
        await h.turn("first", references=[{"path": "/old.md", "content": "OLD BODY"}])
        await h.turn("the big one", references=[{"path": "/ref.md", "content": "REF BODY"}])

    asyncio.run(scenario())
    for cut_request in h.requests()[-2:]:  # keep the last 10, then the last 5
        sent = json.dumps(cut_request["messages"])
        assert sent.count("the big one") == 1, "the turn's user message is kept, once"
        assert sent.count("REF BODY") == 1 and sent.count("OLD BODY") == 1, "pinned references are kept, once"
        assert "first" not in [str(m["content"]).rsplit("\n\n", 1)[-1] for m in cut_request["messages"]]
    last = h.requests()[-1]["messages"]
    assert len(last) < len(h.requests()[-3]["messages"])
    assert last[2]["role"] == "user" and last[2]["content"].endswith("the big one")
    assert h.text().endswith("fits now")


def _empty_stream() -> ScriptedResponse:
    """llama-cpp-python's answer to tools + stream + tool_choice auto: 200, SSE headers, no body."""
    return ScriptedResponse(body=[], headers={"content-type": "text/event-stream"})


def test_auto_dialect_goes_on_in_json_after_an_empty_stream_for_tools() -> None:
    auto = replace(SETTINGS, dialect="auto")
    h = harness([_empty_stream(), say("4")]).run("What is 2+2?", auto)
    first, second = h.requests()
    assert "tools" in first and "tools" not in second
    assert "## How to call a tool" in second["messages"][0]["content"]
    assert h.of("dialect")[0]["dialect"] == "json" and not h.of("retry")
    assert h.text() == "4"
    assert h.engine is not None and h.engine.dialects.resolve("auto", auto.base_url, auto.model) == "json"


def test_an_empty_stream_is_reported_as_an_empty_reply_not_as_unreachable() -> None:
    h = harness([_empty_stream(), _empty_stream()], choice="cancel").run()
    assert [e["error_type"] for e in h.of("retry")] == ["empty_result"]
    decision = h.of("decision")[0]
    assert decision["error_type"] == "empty_result"
    assert "could not be reached" not in json.dumps(decision)
    assert h.requests()[0] != h.requests()[1], "the retry asks for an answer, it does not resend the same"


def test_a_stream_with_nothing_decodable_is_a_protocol_error_the_user_sees() -> None:
    garbage = ScriptedResponse(body=[b"data: {unparsable}\n\n", b"data: [DONE]\n\n"])
    h = harness([garbage], choice="cancel").run()
    assert h.of("decision")[0]["error_type"] == "protocol"
    assert len(h.requests()) == 1


def test_a_call_written_only_inside_thinking_is_pointed_out_once() -> None:
    json_dialect = replace(SETTINGS, dialect="json")
    text = '<think>\n{"tool": "read_file", "arguments": {"path": "/a"}}\n</think>\nDone.'
    h = harness([say(text), say(text), say("ok")]).run("read /a", json_dialect)
    assert len(h.requests()) == 2, "told once per turn, then the answer stands"
    assert "inside your thinking does not run" in h.requests()[1]["messages"][-1]["content"]
    assert not h.tools.ran


def test_a_call_written_as_text_under_forced_native_is_pointed_out_once() -> None:
    text = '<tool_call>\n{"name": "read_file", "arguments": {"path": "/a"}}\n</tool_call>'
    h = harness([say(text), calls(("read_file", {"path": "/a"})), say("done")]).run("read /a")
    assert "wrote a tool call as text" in h.requests()[1]["messages"][-1]["content"]
    assert not h.of("dialect"), "a dialect the user chose is never changed"
    assert h.tools.ran == [("read_file", {"path": "/a", "content": ""})] and h.text().endswith("done")
