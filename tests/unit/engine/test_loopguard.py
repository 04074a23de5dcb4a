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


def test_a_repeated_tool_only_reply_is_left_to_the_call_counter() -> None:
    guard = LoopGuard()
    call = [("read_file", {"path": "/a"})]
    assert [guard.check_reply("", call) for _ in range(4)] == [None] * 4


def test_the_same_words_with_new_calls_are_progress_not_a_loop() -> None:
    guard = LoopGuard()
    assert guard.check_reply("Next file.", [("read_file", {"path": "/a"})]) is None
    assert guard.check_reply("Next file.", [("read_file", {"path": "/b"})]) is None
    assert guard.check_reply("Done.", []) is None
    assert guard.check_reply("Done.", []) is not None


def test_a_normal_round_starts_a_new_series_of_continuations() -> None:
    guard = LoopGuard()
    assert all(guard.may_continue() for _ in range(MAX_CONTINUATIONS))
    guard.round_finished()
    assert all(guard.may_continue() for _ in range(MAX_CONTINUATIONS))
    assert not guard.may_continue()


def test_going_on_after_a_stop_gives_every_call_its_allowance_again() -> None:
    guard = LoopGuard()
    for _ in range(5):
        guard.check_call("read_file", {"path": "/a"})
    guard.go_on()
    assert guard.check_call("read_file", {"path": "/a"}).count == 1
