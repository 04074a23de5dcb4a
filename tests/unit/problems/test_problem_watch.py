"""The agent's side of the page's checkers: what it sends, when, and what the model reads back."""

from __future__ import annotations

from typing import Any

from agentlite.page_jobs import SandboxError, ScriptedSandbox
from agentlite.problems.problem_watch import ProblemWatch
from agentlite.workspace import MemoryStorage, Workspace


class FakeCheckers:
    """A page whose checker flags every line `bad` in a .py file, keeps what it was sent, and can forget."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.session = "s1"

    def __call__(self, kind: str, payload: dict[str, Any], _timeout: int) -> dict[str, Any]:
        assert kind == "problems"
        if payload["session"] not in (None, self.session):
            return {"session": self.session, "resync": True}
        if payload["session"] is None:
            self.files = {}
        check = payload["check"]
        before = {path: self._rows(path) for path in check}
        self.files.update(payload["files"])
        for path in payload["deleted"]:
            self.files.pop(path, None)
        after = {path: self._rows(path) for path in check}
        return {"session": self.session, "before": before, "problems": after}

    def _rows(self, path: str) -> list[list[Any]]:
        lines = self.files.get(path, "").splitlines()
        return [[n, 1, "X1", "bad line"] for n, line in enumerate(lines, 1) if "bad" in line]


async def workspace(files: dict[str, str]) -> Workspace:
    ws = await Workspace.open(MemoryStorage())
    for path, text in files.items():
        await ws.write(path, text, turn="setup", author="user")
    return ws


async def test_a_project_without_checked_files_never_asks_the_page() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    watch, ws = ProblemWatch(sandbox), await workspace({"/index.html": "<p>hi</p>"})
    await watch.settle(ws)
    await ws.write("/notes.md", "bad", turn="t", author="agent")
    assert not await watch.changed(ws)
    assert sandbox.runs == []


async def test_a_change_reports_what_it_introduced_after_a_baseline() -> None:
    page = FakeCheckers()
    sandbox = ScriptedSandbox(page)
    watch, ws = ProblemWatch(sandbox), await workspace({"/a.py": "bad\nok\n", "/b.py": "ok\n"})
    await watch.settle(ws)
    _kind, payload, _ = sandbox.runs[0]
    assert payload["mode"] == "sync" and payload["session"] is None
    assert set(payload["files"]) == {"/a.py", "/b.py"}
    await ws.write("/b.py", "ok\nbad\n", turn="t", author="agent")
    found = await watch.changed(ws)
    payload = sandbox.runs[1][1]
    assert payload["files"] == {"/b.py": "ok\nbad\n"} and payload["check"] == ["/b.py"]
    assert [p.line_text() for p in found.introduced] == ["/b.py:2:1 X1 bad line"]
    assert found.fixed == ()
    assert watch.known["/b.py"][0].line == 2


async def test_settle_sends_nothing_when_the_page_holds_the_workspace_already() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    watch, ws = ProblemWatch(sandbox), await workspace({"/a.py": "ok\n"})
    await watch.settle(ws)
    await watch.settle(ws)
    assert len(sandbox.runs) == 1


async def test_a_page_that_forgot_gets_everything_again() -> None:
    page = FakeCheckers()
    sandbox = ScriptedSandbox(page)
    watch, ws = ProblemWatch(sandbox), await workspace({"/a.py": "bad\n", "/b.py": "ok\n"})
    await watch.settle(ws)
    page.session = "s2"  # a reloaded checker
    await ws.write("/b.py", "bad\n", turn="t", author="agent")
    found = await watch.changed(ws)
    assert set(sandbox.runs[-1][1]["files"]) == {"/a.py", "/b.py"}
    assert [p.path for p in found.introduced] == ["/b.py"]


async def test_a_delete_is_sent_and_its_problems_are_fixed() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    watch, ws = ProblemWatch(sandbox), await workspace({"/a.py": "bad\n"})
    await watch.settle(ws)
    await ws.delete("/a.py", turn="t", author="agent")
    found = await watch.changed(ws)
    assert sandbox.runs[-1][1]["deleted"] == ["/a.py"]
    assert [p.path for p in found.fixed] == ["/a.py"]
    assert "/a.py" not in watch.known


async def test_a_page_that_fails_costs_the_change_nothing() -> None:
    def broken(_kind: str, _payload: dict[str, Any], _timeout: int) -> dict[str, Any]:
        raise SandboxError("unavailable", "no checkers here")

    watch, ws = ProblemWatch(ScriptedSandbox(broken)), await workspace({"/a.py": "bad\n"})
    await watch.settle(ws)
    await ws.write("/a.py", "bad\nbad\n", turn="t", author="agent")
    assert not await watch.changed(ws)
    assert watch.failure == "unavailable: no checkers here"


async def test_skipped_folders_and_huge_files_are_not_sent() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    files = {"/node_modules/x/index.js": "x", "/src/a.ts": "ok", "/big.py": "#" * 600_000}
    watch, ws = ProblemWatch(sandbox), await workspace(files)
    await watch.settle(ws)
    assert set(sandbox.runs[0][1]["files"]) == {"/src/a.ts"}


async def test_check_lists_the_folders_files_and_keeps_them() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    watch, ws = ProblemWatch(sandbox), await workspace({"/src/a.py": "bad\n", "/b.py": "bad\n"})
    found = await watch.check(ws, "/src")
    assert sandbox.runs[-1][1]["check"] == ["/src/a.py"]
    assert list(found) == ["/src/a.py"]
    assert watch.known["/src/a.py"][0].code == "X1"
