"""The workspace against a plain dict model, with injected storage failures (hypothesis state machine).

The model is `{path: text}` for files and `{path: None}` for folders, plus the list of committed states.
Plain operations are predicted exactly (result or typed error). Undo, revert_hunk, undo_turn and
restore_before are predicted exactly whenever the prediction does not depend on entry identity (a move
or an undo makes an entry's path differ from where it began); otherwise the step checks that the
workspace is still consistent and the model follows it. `--hypothesis-show-statistics` shows how often
each was predicted, and how many runs had an injected storage failure.
After every step the workspace, and a workspace freshly opened on the same storage, equal the model:
a failed commit leaves the old state, a lost acknowledgement the new one — never anything in between.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from agentlite.workspace import (
    MemoryStorage,
    NotAFile,
    NotFound,
    StorageError,
    Workspace,
    WorkspaceError,
    paths,
)
from tests.unit.workspace.helpers import MACHINE_PROFILE, FakeClock, snapshot
from tests.unit.workspace.state_model import (
    Expected,
    Logged,
    State,
    model_delete,
    model_edit,
    model_mkdir,
    model_move,
    model_write,
    revert,
)

NAMES = ("a", "b")
path_strategy = st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(
    lambda parts: "/" + "/".join(parts)
)
text_strategy = st.text(alphabet="xy\n", max_size=12)
SIMPLE = {"write", "create", "edit", "delete", "move", "rename", "mkdir"}
UNDOABLE = SIMPLE | {"undo", "revert_hunk"}  # kinds whose log says which path undo(path) takes back
IN_PLACE = {"write", "create", "edit", "delete", "mkdir", "revert_hunk"}  # never move an entry
GOING_BACK = {"undo", "undo_turn", "restore"}  # may bring an entry back where it was, not where it was last


class WorkspaceMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.storage = MemoryStorage()
        self.ws: Workspace = self.run(Workspace.open(self.storage, clock=FakeClock()))
        self.model: State = {}
        self.log: list[Logged] = []
        self.turn_number = 0

    def teardown(self) -> None:
        self.loop.close()

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(coroutine)

    @property
    def turn(self) -> str:
        return f"t{self.turn_number}"

    # --- plain operations -------------------------------------------------------------------------

    def step(
        self,
        kind: str,
        primary: str | None,
        call: Callable[[], Coroutine[Any, Any, Any]],
        predict: Callable[[State], State],
    ) -> None:
        before = self.model
        try:
            expected: State | None = predict(before)
            error: type[WorkspaceError] | None = None
        except Expected as exc:
            expected, error = None, exc.error
        armed = self.storage.faults[0].kind if self.storage.faults else None
        try:
            result = self.run(call())
        except StorageError:
            assert armed is not None and expected is not None and expected != before
            event(f"injected storage failure: {armed}")
            self.after_failure(armed, before, expected, kind, primary)
            return
        except WorkspaceError as exc:
            assert error is not None and isinstance(exc, error), f"{kind}: got {exc!r}, expected {error}"
            return
        assert error is None, f"{kind} succeeded, expected {error}"
        assert expected is not None
        change = getattr(result, "change", result)
        committed = change is not None and change.commit is not None
        assert committed == (expected != before), (
            f"{kind}: commit {committed}, model changed {expected != before}"
        )
        if committed:
            self.log.append(Logged(self.turn, before, expected, kind, primary))
        self.model = expected

    def after_failure(
        self, armed: str, before: State, expected: State, kind: str, primary: str | None
    ) -> None:
        stored = self.run(snapshot(self.run(Workspace.open(self.storage))))
        if armed == "lost_ack":
            assert stored == expected
            self.log.append(Logged(self.turn, before, expected, kind, primary))
            self.model = expected
        else:
            assert stored == before

    @rule(
        path=path_strategy,
        text=text_strategy,
        create=st.booleans(),
        author=st.sampled_from(["agent", "user"]),
    )
    def write(self, path: str, text: str, create: bool, author: str) -> None:
        method = self.ws.create if create else self.ws.write
        self.step(
            "create" if create else "write",
            path,
            lambda: method(path, text, turn=self.turn, author=author),
            lambda state: model_write(state, path, text, create),
        )

    @rule(data=st.data(), path=path_strategy, replacement=text_strategy)
    def edit(self, data: st.DataObject, path: str, replacement: str) -> None:
        text = self.model.get(path)
        original = "zz"  # never in the text: not found
        if text:
            start = data.draw(st.integers(0, len(text) - 1))
            original = text[start : data.draw(st.integers(start + 1, len(text)))]
        self.step(
            "edit",
            path,
            lambda: self.ws.edit(path, original, replacement, turn=self.turn),
            lambda state: model_edit(state, path, original, replacement),
        )

    @rule(path=path_strategy)
    def delete(self, path: str) -> None:
        self.step(
            "delete", path, lambda: self.ws.delete(path, turn=self.turn), lambda s: model_delete(s, path)
        )

    @rule(source=path_strategy, destination=path_strategy)
    def move(self, source: str, destination: str) -> None:
        inside = self.model.get(destination, 0) is None and destination != source
        final = paths.join(destination, paths.name_of(source)) if inside else destination
        self.step(
            "move",
            final,
            lambda: self.ws.move(source, destination, turn=self.turn),
            lambda state: model_move(state, source, final),
        )

    @rule(source=path_strategy, name=st.sampled_from(NAMES))
    def rename(self, source: str, name: str) -> None:
        final = paths.join(paths.parent(source), name)
        self.step(
            "rename",
            final,
            lambda: self.ws.rename(source, name, turn=self.turn),
            lambda state: model_move(state, source, final),
        )

    @rule(path=path_strategy)
    def mkdir(self, path: str) -> None:
        self.step(
            "mkdir", path, lambda: self.ws.create_folder(path, turn=self.turn), lambda s: model_mkdir(s, path)
        )

    @rule()
    def next_turn(self) -> None:
        self.turn_number += 1

    @precondition(lambda self: not self.storage.faults)
    @rule(kind=st.sampled_from(["io", "quota", "lost_ack"]))
    def fail_next_commit(self, kind: str) -> None:
        self.storage.fail_commit(kind=kind)  # type: ignore[arg-type]

    @rule()
    def reopen(self) -> None:
        self.ws = self.run(Workspace.open(self.storage, clock=FakeClock(2e9)))

    # --- going back in time ------------------------------------------------------------------------

    def step_back(
        self,
        kind: str,
        call: Callable[[], Coroutine[Any, Any, Any]],
        predicted: State | None,
        primary: str | None = None,
    ) -> None:
        event(f"{kind}: {'predicted' if predicted is not None else 'followed'}")
        before = self.model
        armed = self.storage.faults[0].kind if self.storage.faults else None
        try:
            change = self.run(call())
        except StorageError:
            assert armed is not None
            event(f"injected storage failure: {armed}")
            stored = self.run(snapshot(self.run(Workspace.open(self.storage))))
            if armed != "lost_ack":
                assert stored == before
            elif stored != before:
                assert predicted is None or stored == predicted
                self.log.append(Logged(self.turn, before, stored, kind, primary))
            self.model = stored
            return
        except (NotFound, NotAFile):
            return
        actual = self.run(snapshot(self.ws))
        if predicted is not None:
            assert actual == predicted, f"{kind}: {actual} != {predicted}"
        if change.commit is not None:
            self.log.append(Logged(self.turn, before, actual, kind, primary))
        self.model = actual

    @staticmethod
    def _valid(state: State | None) -> State | None:
        """The state when it is a tree (every parent a folder), else None: not predictable then."""
        if state is None:
            return None
        for path in state:
            folder = paths.parent(path)
            if folder != "/" and (folder not in state or state[folder] is not None):
                return None
        return state

    def _back_elsewhere(self, index: int) -> bool:
        """Whether a change after `index` may have changed an entry of that change at another path, which
        the path-based `_untouched_since` cannot see: the workspace then keeps that entry (a conflict).
        Possible once some entry has moved (a change not in place, up to `index`) and a later change
        went back in time: a deleted entry comes back at a path it had before it moved."""
        moved = any(entry.kind not in IN_PLACE for entry in self.log[: index + 1])
        return moved and any(entry.kind in GOING_BACK for entry in self.log[index + 1 :])

    def _untouched_since(self, index: int, touched: set[str], skip_turn: str | None = None) -> bool:
        return all(
            not (entry.touched() & touched) for entry in self.log[index + 1 :] if entry.turn != skip_turn
        )

    @rule(path=path_strategy)
    def undo(self, path: str) -> None:
        predicted = self._valid(self._undone(path))
        self.step_back("undo", lambda: self.ws.undo(path, turn=self.turn), predicted, path)

    def _undone(self, path: str) -> State | None:
        """The state after undo(path): the newest change of the entry at `path` taken back for it, for
        what is below it, and for the folders that change created above them (missing parents come
        back as folders). Known while that change moved nothing, or when it was made at `path`, and no entry
        of it can have been changed since at a path the log does not show for it (`_back_elsewhere`)."""
        last = max((i for i, e in enumerate(self.log) if path in e.touched()), default=None)
        if last is None:
            return dict(self.model)  # never existed: nothing to undo
        entry = self.log[last]
        if self._back_elsewhere(last):
            return None
        if entry.kind in IN_PLACE:
            chosen = {p for p in entry.touched() if paths.is_within(p, path)}
            created = {p for p in entry.touched() if p not in entry.before and entry.after.get(p, 0) is None}
            chosen |= {f for f in created if any(paths.is_below(p, f) for p in chosen)}
        elif entry.kind in UNDOABLE and entry.primary == path:
            chosen = entry.touched()
        else:
            return None
        if not self._untouched_since(last, chosen):
            return None
        predicted = {p: v for p, v in self.model.items() if p not in chosen}
        predicted.update({p: entry.before[p] for p in chosen if p in entry.before})
        for restored in [p for p in chosen if p in entry.before]:
            for folder in paths.ancestors(restored):
                if predicted.get(folder) is not None and folder in predicted:
                    return None  # a file where a parent folder must be: a conflict
                predicted[folder] = None
        return predicted

    @precondition(lambda self: bool(self.log))
    @rule(data=st.data())
    def undo_turn(self, data: st.DataObject) -> None:
        turn = data.draw(st.sampled_from(sorted({e.turn for e in self.log})))
        indices = [i for i, e in enumerate(self.log) if e.turn == turn]
        touched = set().union(*(self.log[i].touched() for i in indices))
        before = dict(self.model)
        later = {
            p
            for p in touched
            if self._touched_after(p, max(i for i in indices if p in self.log[i].touched()), turn)
        }
        predicted = self._valid(self._turn_undone(turn, indices, touched))
        self.step_back("undo_turn", lambda: self.ws.undo_turn(turn, turn=self.turn), predicted)
        for path in later & set(before):  # changed again by another turn since: never overwritten
            assert self.model.get(path, 0) == before[path], f"undo_turn overwrote {path}"
        for path in (set(before) | set(self.model)) - touched:  # files the turn did not touch stay
            if before.get(path) is not None or self.model.get(path) is not None:
                assert self.model.get(path, 0) == before.get(path, 0), f"undo_turn changed {path}"

    def _turn_undone(self, turn: str, indices: list[int], touched: set[str]) -> State | None:
        """The state after undo_turn(turn): each path the turn changed goes back to what it was before
        the turn's first change of it, unless another turn changed it after that (a conflict: kept).
        Known while no entry moved (paths are identities) since the turn began; else None."""
        if any(entry.kind not in IN_PLACE for entry in self.log[indices[0] :]):
            return None
        predicted = dict(self.model)
        for path in touched:
            first = min(i for i in indices if path in self.log[i].touched())
            if self._touched_after(path, first, turn):
                continue
            predicted.pop(path, None)
            if path in self.log[first].before:
                predicted[path] = self.log[first].before[path]
        return predicted

    def _touched_after(self, path: str, index: int, turn: str) -> bool:
        return any(path in entry.touched() for entry in self.log[index + 1 :] if entry.turn != turn)

    @precondition(lambda self: bool(self.log))
    @rule(data=st.data())
    def restore_before(self, data: st.DataObject) -> None:
        turn = data.draw(st.sampled_from(sorted({e.turn for e in self.log})))
        first = next(e for e in self.log if e.turn == turn)
        self.step_back("restore", lambda: self.ws.restore_before(turn, turn=self.turn), dict(first.before))

    @precondition(lambda self: any(v is not None for v in self.model.values()))
    @rule(data=st.data())
    def revert_hunk(self, data: st.DataObject) -> None:
        path = data.draw(st.sampled_from(sorted(p for p, v in self.model.items() if v is not None)))
        newest = self.run(self.ws.history(path))[-1]
        version = data.draw(st.one_of(st.just(newest["version"]), st.integers(1, 4)))
        index = data.draw(st.integers(0, 2))

        async def call() -> Any:
            try:
                return await self.ws.revert_hunk(path, version, index, turn=self.turn)
            except WorkspaceError as exc:
                if isinstance(exc, StorageError):
                    raise
                return _NoChange()

        predicted = self._hunk_reverted(path, version, index, newest)
        self.step_back("revert_hunk", call, predicted, path)

    def _hunk_reverted(self, path: str, version: int, index: int, newest: dict[str, Any]) -> State | None:
        """The state after reverting hunk `index` of `version`, known when `version` is the change that
        made the current text (a write or edit in place, or a create: from nothing): then its old text
        is known, the hunks must take the current text back to it, and the chosen one is undone exactly
        where it is. A version that does not exist changes nothing."""
        if version > newest["version"]:
            return dict(self.model)  # no such version: refused
        last = max((i for i, e in enumerate(self.log) if path in e.touched()), default=None)
        if last is None or version != newest["version"] or newest["op"] not in ("write", "edit", "create"):
            return None
        old = self.log[last].before.get(path) if newest["op"] != "create" else ""
        current = self.model[path]
        assert isinstance(old, str) and isinstance(current, str)
        hunks = self.run(self.ws.hunks(path, version))
        every = current
        for hunk in reversed(hunks):
            every = revert(every, hunk)
        assert every == old, f"the hunks of v{version} of {path} do not take {current!r} back to {old!r}"
        if index >= len(hunks):
            return dict(self.model)  # no such hunk: refused, nothing changes
        return {**self.model, path: revert(current, hunks[index])}

    # --- the checks --------------------------------------------------------------------------------

    @invariant()
    def workspace_equals_model(self) -> None:
        assert self.run(snapshot(self.ws)) == self.model

    @invariant()
    def storage_equals_model(self) -> None:
        fresh = self.run(Workspace.open(self.storage))
        assert self.run(snapshot(fresh)) == self.model
        for path, text in self.model.items():
            if text is not None:
                history = self.run(fresh.history(path))
                assert history and history[-1]["op"] != "delete" and history[-1]["path"] == path


class _NoChange:
    commit = None
    skipped: tuple[Any, ...] = ()


WorkspaceMachine.TestCase.settings = settings(MACHINE_PROFILE)
TestWorkspaceMachine = WorkspaceMachine.TestCase
