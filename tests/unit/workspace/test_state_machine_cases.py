"""Sequences the workspace state machine once got wrong, replayed step by step without hypothesis."""

from __future__ import annotations

import pytest

from tests.unit.workspace import test_state_machine
from tests.unit.workspace.test_state_machine import WorkspaceMachine


@pytest.fixture(autouse=True)
def _no_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """`hypothesis.event` works only inside a hypothesis test; these replays run outside one."""
    monkeypatch.setattr(test_state_machine, "event", lambda _value: None)


def _checked(machine: WorkspaceMachine) -> None:
    machine.workspace_equals_model()
    machine.storage_equals_model()


def test_undo_of_a_folder_delete_whose_moved_entries_a_restore_brought_back_elsewhere() -> None:
    """/b/a is moved into /a, /a is deleted, a restore brings /b and /b/a back at their old paths; undo of
    the delete then cannot also put them back under /a (they are the same entries). The model once
    predicted they would, by path; it must not predict, and follow the workspace instead."""
    machine = WorkspaceMachine()
    try:
        machine.mkdir(path="/b/a")
        machine.next_turn()
        machine.move(source="/b", destination="/a/b")
        machine.next_turn()
        machine.delete(path="/a")
        machine.next_turn()
        before_move = {"/b": None, "/b/a": None}
        machine.step_back("restore", lambda: machine.ws.restore_before("t1", turn=machine.turn), before_move)
        _checked(machine)
        assert machine._undone("/a") is None
        machine.undo(path="/a")
        _checked(machine)
        assert machine.model == {"/a": None, "/b": None, "/b/a": None}
    finally:
        machine.teardown()
