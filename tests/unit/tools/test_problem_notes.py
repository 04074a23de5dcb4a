"""Problems on a change's result, and check_problems: through the real tools and a fake page."""

from __future__ import annotations

from agentlite.page_jobs import ScriptedSandbox
from agentlite.problems.change_notes import noting_problems
from agentlite.problems.problem_watch import ProblemWatch
from tests.unit.problems.test_problem_watch import FakeCheckers
from tests.unit.tools.conftest import REGISTRY, call, context_with


async def test_a_write_carries_the_problems_it_introduced() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    context = await context_with({"/a.py": "bad\n", "/b.py": "ok\n"}, problems=ProblemWatch(sandbox))
    tool = REGISTRY.get("write_file")
    result = await noting_problems(
        context, tool, lambda: call(context, "write_file", path="/b.py", content="ok\nbad\n")
    )
    assert result.ok
    assert "Problems this change introduced (1):\n/b.py:2:1 X1 bad line" in result.message
    assert result.to_dict()["problems"] == {"introduced": 1, "fixed": 0}
    assert "/a.py" not in result.message  # the backlog is not the change's


async def test_a_read_asks_the_checkers_nothing() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    context = await context_with({"/a.py": "bad\n"}, problems=ProblemWatch(sandbox))
    result = await noting_problems(
        context, REGISTRY.get("read_file"), lambda: call(context, "read_file", path="/a.py")
    )
    assert result.ok and sandbox.runs == []


async def test_a_change_without_new_problems_says_nothing_more() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    context = await context_with({"/a.py": "ok\n"}, problems=ProblemWatch(sandbox))
    result = await noting_problems(
        context,
        REGISTRY.get("write_file"),
        lambda: call(context, "write_file", path="/a.py", content="fine\n"),
    )
    assert "Problems" not in result.message and "problems" not in result.to_dict()


async def test_check_problems_lists_a_folder() -> None:
    sandbox = ScriptedSandbox(FakeCheckers())
    context = await context_with(
        {"/src/a.py": "bad\nbad\n", "/b.py": "bad\n"}, problems=ProblemWatch(sandbox)
    )
    result = await call(context, "check_problems", path="/src")
    assert result.ok
    assert result.message.splitlines() == [
        "2 problems in 1 file under /src:",
        "/src/a.py:1:1 X1 bad line",
        "/src/a.py:2:1 X1 bad line",
    ]


async def test_check_problems_without_checkers_says_so() -> None:
    context = await context_with({"/a.py": "bad\n"})
    result = await call(context, "check_problems")
    assert not result.ok and "not available" in result.message
