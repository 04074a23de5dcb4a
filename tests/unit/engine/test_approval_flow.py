"""Approvals through a chat: the card waits, the user answers, a rejection reaches the model."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from tests.unit.engine.support import SETTINGS, Harness, answer_when, calls, say


def approving(approved: bool, batch: bool = False):  # type: ignore[no-untyped-def]
    return answer_when("approval", lambda chat, event: chat.approve(event["id"], approved, batch))


def test_a_delete_waits_for_approval_then_runs() -> None:
    h = Harness([calls(("delete_file", {"path": "/a"})), say("Deleted.")])
    h.on_event = approving(True)(h)
    h.run("delete /a")
    approval = h.of("approval")[0]
    assert approval["name"] == "delete_file" and approval["reason"] == "This call deletes /a."
    assert [s for _id, s in h.statuses()] == ["pending", "awaiting-approval", "executing", "completed"]
    assert h.tools.ran == [("delete_file", {"path": "/a", "content": ""})]


def test_a_rejection_goes_back_to_the_model_as_rejected() -> None:
    h = Harness([calls(("delete_file", {"path": "/a"})), say("OK, I left it.")])
    h.on_event = approving(False)(h)
    h.run("delete /a")
    assert h.tools.ran == []
    final = h.of("tool_status")[-1]
    assert final["status"] == "rejected" and final["result"]["errorType"] == "rejected"
    tool = h.requests()[1]["messages"][-1]
    assert tool["role"] == "tool" and "The user rejected this call" in tool["content"]
    assert h.text().endswith("OK, I left it.")


def test_overwriting_an_existing_file_asks_but_a_new_file_does_not() -> None:
    h = Harness([calls(("write_file", {"path": "/new"}), ("write_file", {"path": "/old"})), say("ok")])
    h.existing = {"/old"}
    h.on_event = approving(True)(h)
    h.run("write both")
    assert [a["arguments"]["path"] for a in h.of("approval")] == ["/old"]
    assert len(h.tools.ran) == 2


def test_auto_approved_kinds_run_without_asking() -> None:
    h = Harness([calls(("delete_file", {"path": "/a"}), ("shell_exec", {})), say("ok")])
    h.on_event = approving(False)(h)
    h.run("go", auto_approve=["delete"])
    assert [a["name"] for a in h.of("approval")] == ["shell_exec"]
    assert [name for name, _ in h.tools.ran] == ["delete_file"]


def test_one_answer_can_approve_a_whole_batch() -> None:
    many = calls(*[("create_file", {"path": f"/f{i}"}) for i in range(12)])
    h = Harness([many, say("12 files created")])
    answered: list[str] = []

    def once(chat, event):  # type: ignore[no-untyped-def]
        if not answered:
            answered.append(event["id"])
            chat.approve(event["id"], True, batch=True)

    h.on_event = answer_when("approval", once)(h)
    h.run("make 12 files")
    assert len(h.of("approval")) == 12
    assert "12 file operations" in h.of("approval")[0]["reason"]
    assert len(h.tools.ran) == 12
    assert [n for n, _ in h.tools.ran] == ["create_file"] * 12


def test_calls_after_an_awaiting_one_keep_their_order() -> None:
    h = Harness([calls(("delete_file", {"path": "/a"}), ("create_file", {"path": "/b"})), say("ok")])
    h.on_event = approving(True)(h)
    h.run("go")
    assert [n for n, _ in h.tools.ran] == ["delete_file", "create_file"]


def test_the_same_call_five_times_stops_the_turn_and_says_why() -> None:
    same = [calls(("read_file", {"path": "/a"}), text=f"try {i}") for i in range(6)]
    h = Harness(same)
    h.on_event = answer_when("decision", lambda chat, _event: chat.decide("cancel"))(h)
    h.run("loop")
    stopped = h.of("stopped")
    assert stopped and stopped[0]["reason"] == "loop" and "5 times" in stopped[0]["message"]
    assert len(h.tools.ran) == 4
    third = h.requests()[3]["messages"][-1]["content"]
    assert "Note: this is call 3 of read_file" in third


def _paced_ndjson_batch(h: Harness, count: int = 12) -> None:
    """A paced ndjson reply of `count` creates; the first create blocks until the first approval shows,
    so the calls after it are still waiting for their turn when the reply passes ten file operations."""
    many = calls(*[("create_file", {"path": f"/f{i}"}) for i in range(count)], dialect="ndjson")
    h.responses = [replace(many, delay=0.001), say("done")]
    h.tools.gates["create_file"] = gate = asyncio.Event()
    h.setup()
    previous = h.on_event

    def open_gate(event: dict[str, Any]) -> None:
        if event["kind"] == "approval":
            gate.set()
        if previous is not None:
            previous(event)

    h.on_event = open_gate


def test_in_ndjson_every_file_operation_not_started_when_the_eleventh_arrives_asks() -> None:
    h = Harness()
    h.on_event = approving(False)(h)
    _paced_ndjson_batch(h)
    h.run("make 12 files", replace(SETTINGS, dialect="ndjson"))
    asked = {a["id"] for a in h.of("approval")}
    started = [i for i, s in h.statuses() if s == "executing"]
    assert len(started) == 1, "only the first create had started; the other eleven asked"
    assert started[0] not in asked and len(asked) == 11
    assert all("file operations in this reply" in a["reason"] for a in h.of("approval"))
    assert h.tools.ran == [("create_file", {"path": "/f0", "content": ""})]
    assert h.chat is not None
    results = [m for m in h.chat.messages if m.role == "tool"]
    assert [m.status for m in results] == ["completed"] + ["rejected"] * 11
    assert all("The user rejected this call" in m.content for m in results[1:])


def test_in_ndjson_one_approve_all_covers_the_rest_of_the_reply() -> None:
    h = Harness()
    h.on_event = approving(True, batch=True)(h)
    _paced_ndjson_batch(h)
    h.run("make 12 files", replace(SETTINGS, dialect="ndjson"))
    assert len(h.tools.ran) == 12
    approvals = h.of("approval")
    assert approvals and len({a["batch"] for a in approvals}) == 1
    awaiting = [i for i, s in h.statuses() if s == "awaiting-approval"]
    assert len(awaiting) == len(approvals) < 11, "the batch answer covered calls that had not asked yet"


def test_approve_all_answers_only_the_kind_of_its_card() -> None:
    """ "Approve all" on a delete card runs the reply's waiting deletes, never its shell or JavaScript call:
    those still ask (and here are rejected)."""
    reply = calls(
        ("delete_file", {"path": "/a"}),
        ("shell_exec", {"path": "/s"}),
        ("delete_file", {"path": "/b"}),
        ("browser_js_eval", {"path": "/j"}),
    )
    h = Harness([reply, say("ok")])

    def answer(chat, event):  # type: ignore[no-untyped-def]
        if event["name"] == "delete_file":
            chat.approve(event["id"], True, batch=True)
        else:
            chat.approve(event["id"], False)

    h.on_event = answer_when("approval", answer)(h)
    h.run("clean up")
    assert [n for n, _ in h.tools.ran] == ["delete_file", "delete_file"]
    assert sorted(a["name"] for a in h.of("approval")) == sorted(
        ["delete_file", "delete_file", "shell_exec", "browser_js_eval"]
    )
