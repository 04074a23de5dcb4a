"""Loop detection: repeated calls warn then stop; identical replies stop; continuations are bounded."""

from __future__ import annotations

from agentlite.engine.loopguard import MAX_CONTINUATIONS, LoopGuard


def test_the_third_identical_call_warns_and_the_fifth_stops() -> None:
    guard = LoopGuard()
    verdicts = [guard.check_call("read_file", {"path": "/a"}) for _ in range(5)]
    assert [v.warning is not None for v in verdicts] == [False, False, True, True, False]
    assert [v.stop is not None for v in verdicts] == [False, False, False, False, True]
    assert "5 times" in (verdicts[-1].stop or "")


def test_different_arguments_are_different_calls() -> None:
    guard = LoopGuard()
    for index in range(6):
        assert guard.check_call("read_file", {"path": f"/{index}"}).stop is None


def test_argument_order_does_not_hide_a_repeat() -> None:
    guard = LoopGuard()
    guard.check_call("search", {"query": "x", "path": "/"})
    assert guard.check_call("search", {"path": "/", "query": "x"}).count == 2


def test_an_identical_reply_in_a_row_stops() -> None:
    guard = LoopGuard()
    assert guard.check_reply("Let me check.", [("list_directory", {"path": "/"})]) is None
    assert guard.check_reply("Let me check.", [("list_directory", {"path": "/"})]) is not None


def test_replies_that_differ_do_not_stop() -> None:
    guard = LoopGuard()
    assert guard.check_reply("one", []) is None
    assert guard.check_reply("two", []) is None
    assert guard.check_reply("", []) is None
    assert guard.check_reply("", []) is None  # empty replies are the empty-result strategy's business


def test_length_continuations_are_bounded() -> None:
    guard = LoopGuard()
    assert [guard.may_continue() for _ in range(MAX_CONTINUATIONS + 1)] == [True] * MAX_CONTINUATIONS + [
        False
    ]
