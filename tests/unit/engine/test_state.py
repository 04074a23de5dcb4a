"""The chat state machine: every legal move is accepted and reported, every illegal one refused."""

from __future__ import annotations

import pytest

from agentlite.engine.state import TRANSITIONS, ChatState, IllegalTransition, StateMachine

S = ChatState


def machine_at(state: ChatState) -> tuple[StateMachine, list[tuple[str, str]]]:
    seen: list[tuple[str, str]] = []
    machine = StateMachine(lambda new, old, _detail: seen.append((old.value, new.value)))
    machine.state = state
    return machine, seen


@pytest.mark.parametrize(("source", "target"), [(s, t) for s in S for t in S if t in TRANSITIONS[s]])
def test_every_legal_move_is_taken_and_reported(source: ChatState, target: ChatState) -> None:
    machine, seen = machine_at(source)
    machine.transition(target)
    assert machine.state is target
    assert seen == [(source.value, target.value)]


@pytest.mark.parametrize(("source", "target"), [(s, t) for s in S for t in S if t not in TRANSITIONS[s]])
def test_every_illegal_move_is_refused_and_changes_nothing(source: ChatState, target: ChatState) -> None:
    machine, seen = machine_at(source)
    with pytest.raises(IllegalTransition):
        machine.transition(target)
    assert machine.state is source
    assert seen == []


def test_the_happy_path_of_a_tool_turn() -> None:
    machine, seen = machine_at(S.IDLE)
    path = [S.PLANNING, S.REQUESTING, S.STREAMING, S.RUNNING_TOOLS, S.DECIDING, S.REQUESTING, S.STREAMING,
            S.DECIDING, S.RESPONDING, S.COMPLETED, S.IDLE]  # fmt: skip
    for state in path:
        machine.transition(state)
    assert [new for _old, new in seen] == [s.value for s in path]


@pytest.mark.parametrize("state", [s for s in S if s is not S.IDLE])
def test_a_turn_always_ends_idle(state: ChatState) -> None:
    machine, _seen = machine_at(state)
    machine.end_turn()
    assert machine.state is S.IDLE
    assert not machine.running


def test_idle_cannot_skip_planning() -> None:
    machine, _seen = machine_at(S.IDLE)
    with pytest.raises(IllegalTransition, match="idle → requesting"):
        machine.transition(S.REQUESTING)


def test_detail_travels_with_the_event() -> None:
    details: list[dict[str, object]] = []
    machine = StateMachine(lambda _new, _old, detail: details.append(detail))
    machine.transition(S.PLANNING)
    machine.transition(S.REQUESTING, round=1)
    assert details == [{}, {"round": 1}]
