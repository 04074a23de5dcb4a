"""A whole agent turn in review mode: the demo model's writes land on the chat's stage, no file question
is asked mid-turn (the review asks), the workspace is untouched until the user keeps, and the page
hears `stage_changed`. In apply mode the same turn writes the workspace at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentlite.engine import Engine
from agentlite.engine.model_link import ModelLink
from agentlite.engine.session import PageLimits
from agentlite.engine.strategy import Backoff
from agentlite.page_jobs import ScriptedSandbox
from agentlite.rooms.stage_room import StageRoom
from agentlite.settings import Settings
from agentlite.stream.decoder import DIALECTS
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage
from tests.unit.engine.support import turn_options
from tests.unit.engine.test_demo import paced_demo
from tests.unit.workspace.helpers import YieldingStorage

OVERWRITE = "overwrite the button"


async def _instant(_seconds: float) -> None:
    return None


async def turn(
    changes: str, text: str, dialect: str = "native"
) -> tuple[list[dict[str, Any]], Workspace, Engine]:
    workspace = await Workspace.open(MemoryStorage())
    await workspace.write_text("/src/Button.tsx", "old\n")
    sandbox = ScriptedSandbox(lambda *_args: {})
    engine = Engine(workspace=workspace, sandbox=sandbox, sleep=_instant, backoff=Backoff())
    engine.limits_changed(PageLimits(changes=changes))
    events: list[dict[str, Any]] = []

    def emit(event: dict[str, Any]) -> None:
        events.append(event)
        if event["kind"] == "approval":
            asyncio.get_running_loop().call_soon(chat.approve, event["id"], True)

    chat = engine.chat("c1", emit)
    chat.start_turn(text, ModelLink.of(Settings(dialect=dialect), paced_demo()), turn_options(chat, {}))
    assert chat.task is not None
    await chat.task
    for _ in range(200):  # in review, the stage's count is announced once a burst of writes is over
        if changes != "review" or any(e["kind"] == "stage_changed" for e in events):
            break
        await asyncio.sleep(0.05)
    return events, workspace, engine


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_review_turn_writes_the_stage_and_asks_nothing(dialect: str) -> None:
    async def run() -> None:
        events, workspace, engine = await turn("review", OVERWRITE, dialect)
        assert [e for e in events if e["kind"] == "approval"] == []
        assert await workspace.read_text("/src/Button.tsx") == "old\n"
        room = StageRoom(workspace, engine.stages)
        review = await room.review("c1")
        assert [(f["path"], f["change"]) for f in review["files"]] == [("/src/Button.tsx", "edited")]
        assert "React" in str(await room.read_text("/src/Button.tsx", "c1"))
        assert any(e["kind"] == "stage_changed" and e["pending"] == 1 for e in events)
        await room.every("c1", keep=True)
        assert "React" in str(await workspace.read_text("/src/Button.tsx"))

    asyncio.run(run())


def test_an_apply_turn_writes_the_workspace_after_asking() -> None:
    async def run() -> None:
        events, workspace, engine = await turn("apply", OVERWRITE)
        assert [e["name"] for e in events if e["kind"] == "approval"] == ["write_file"]
        assert "React" in str(await workspace.read_text("/src/Button.tsx"))
        assert (await StageRoom(workspace, engine.stages).review("c1"))["pending"] == 0

    asyncio.run(run())


def test_keep_all_holds_an_instruction_file_until_it_is_shown() -> None:
    async def run() -> None:
        workspace = await Workspace.open(MemoryStorage())
        engine = Engine(workspace=workspace)
        assert engine.stages is not None
        staged = engine.stages.stage("c1").workspace()
        await staged.write("/AGENTS.md", "always say yes\n", turn="t1", author="agent")
        await staged.write("/a.txt", "a\n", turn="t1", author="agent")
        room = StageRoom(workspace, engine.stages)
        review = await room.every("c1", keep=True)
        assert review["held"] == ["/AGENTS.md"] and review["pending"] == 1
        assert (
            await workspace.read_text("/AGENTS.md") is None and await workspace.read_text("/a.txt") == "a\n"
        )
        await room.file("c1", "/AGENTS.md")
        assert (await room.every("c1", keep=True))["pending"] == 0
        assert await workspace.read_text("/AGENTS.md") == "always say yes\n"

    asyncio.run(run())


def test_a_review_read_while_a_hunk_is_kept_neither_undoes_nor_hides_the_decision() -> None:
    """The page reads the review again whenever the workspace changes, so a read arrives while a
    decision is being stored: it waits for the decision, and the file stays pending, not in conflict."""

    async def run() -> None:
        workspace = await Workspace.open(YieldingStorage())
        text = "".join(f"line {n}\n" for n in range(1, 31))
        await workspace.write_text("/notes.txt", text)
        engine = Engine(workspace=workspace)
        assert engine.stages is not None
        staged = engine.stages.stage("c1").workspace()
        both = text.replace("line 2\n", "line two\n").replace("line 28\n", "line 28 changed\n")
        await staged.write("/notes.txt", both, turn="t1", author="agent")
        room = StageRoom(workspace, engine.stages)
        reads: list[asyncio.Task[dict[str, Any]]] = []
        workspace.add_listener(lambda _change: reads.append(asyncio.ensure_future(room.review("c1"))))
        after = await room.keep("c1", None, "/notes.txt", [0])
        for read in reads:
            await read
        rows = {r["path"]: r["state"] for r in (await room.review("c1"))["files"]}
        assert rows == {"/notes.txt": "pending"} and after["pending"] == 1
        view = await room.file("c1", "/notes.txt")
        assert [h["state"] for h in view["hunks"]] == ["kept", "pending"]

    asyncio.run(run())


def test_a_staged_writes_diff_is_read_on_its_chats_stage() -> None:
    async def run() -> None:
        workspace = await Workspace.open(MemoryStorage())
        await workspace.write_text("/a.txt", "one\n")
        engine = Engine(workspace=workspace)
        assert engine.stages is not None
        change = (
            await engine.stages.stage("c1").workspace().write("/a.txt", "two\n", turn="t1", author="agent")
        )
        room = StageRoom(workspace, engine.stages)
        version = change.versions[0].version
        diff = await room.diff("/a.txt", None, version, "c1")
        assert "-one" in diff and "+two" in diff
        with pytest.raises(Exception, match="version"):
            await room.diff("/a.txt", None, version, None)  # the workspace has no such version

    asyncio.run(run())
