"""Properties of the stage over random turns and random decisions (hypothesis):

- what the agent writes on the stage never changes the workspace;
- whatever is kept and dropped, file by file or hunk by hunk, keeping the rest at the end leaves the
  workspace exactly as the stage showed it, but for the files dropped whole, which are as they were;
- dropping everything leaves the workspace as it was and the stage showing it;
- any set of hunks kept from a change gives a text whose change has exactly that many hunks.
"""

from __future__ import annotations

import asyncio
import random

from hypothesis import given
from hypothesis import strategies as st

from agentlite.stage.hunk_pick import with_hunks
from agentlite.stage.stage import Pick
from agentlite.stage.stage_book import StageBook
from agentlite.workspace import Workspace
from agentlite.workspace.diffs import hunks
from agentlite.workspace.storage import MemoryStorage
from agentlite.workspace.workspace_errors import WorkspaceError
from tests.unit.workspace.helpers import PROFILE
from tests.unit.workspace.helpers import snapshot as everything

PATHS = ["/a.txt", "/b.txt", "/d/c.txt", "/d/e.txt", "/f.txt"]
LINES = st.lists(st.sampled_from(["x\n", "y\n", "z\n", "w\n"]), min_size=0, max_size=12)
TEXT = LINES.map("".join)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.sampled_from(PATHS), TEXT),
        st.tuples(st.just("delete"), st.sampled_from(PATHS), st.just("")),
        st.tuples(st.just("move"), st.sampled_from(PATHS), st.sampled_from(PATHS)),
    ),
    max_size=8,
)
START = st.dictionaries(st.sampled_from(PATHS), TEXT, max_size=4)


async def snapshot(ws: Workspace) -> dict[str, str | None]:
    """The files (folders come and go with the files kept: an empty folder alone is not reviewed)."""
    return {path: text for path, text in (await everything(ws)).items() if text is not None}


async def setup(start: dict[str, str], ops: list[tuple[str, str, str]]) -> tuple[Workspace, StageBook]:
    ws = await Workspace.open(MemoryStorage())
    for path, text in start.items():
        await ws.write(path, text, turn="setup", author="user")
    book = StageBook(ws)
    staged = book.stage("c").workspace()
    for op, path, arg in ops:
        try:
            if op == "write":
                await staged.write(path, arg, turn="t1", author="agent")
            elif op == "delete":
                await staged.delete(path, turn="t1", author="agent")
            else:
                await staged.move(path, arg, turn="t1", author="agent")
        except WorkspaceError:
            pass  # a move onto a taken path, a missing file: the model would hear why
    return ws, book


def expected_after(original: dict, staged: dict, rows: list[dict], dropped: set[str]) -> dict:
    """The stage's files, but each dropped change undone: its new path empty, its old file back (and the
    file a dropped change had taken the place of, unless that one moved away)."""
    result = dict(staged)
    undone = [row for row in rows if row["path"] in dropped]
    for row in undone:
        if row["change"] != "deleted":
            result.pop(row["path"], None)
    for row in undone:
        old = row["source"] or row["path"]
        if old in original and row["change"] != "created":
            result[old] = original[old]
        moved_away = any(other["source"] == row["path"] for other in rows)
        if row["change"] in ("created", "moved") and row["path"] in original and not moved_away:
            result[row["path"]] = original[row["path"]]
    return result


@PROFILE
@given(START, OPS, st.randoms(use_true_random=False))
def test_decisions_then_keep_all_give_the_stage_but_the_dropped_files(
    start: dict[str, str], ops: list[tuple[str, str, str]], rnd: random.Random
) -> None:
    async def run() -> None:
        ws, book = await setup(start, ops)
        original = await snapshot(ws)
        stage = book.stage("c")
        staged = await snapshot(stage.workspace())
        assert await snapshot(ws) == {p: t for p, t in start.items()}  # the stage never touched it
        review = await stage.review()
        rows = review["files"]
        dropped: set[str] = set()

        async def decide(picks: dict[str, Pick]) -> None:
            after = await stage.decide(picks)
            dropped.update(r["path"] for r in after["files"] if r["state"] == "dropped")

        for row in rows:
            still = {r["path"]: r["state"] for r in (await stage.review())["files"]}
            choice = rnd.choice(["keep", "drop", "hunks", "leave"])
            if still.get(row["path"]) != "pending":
                continue  # decided with another file (a path both changes touch)
            if choice in ("keep", "drop"):
                await decide({row["path"]: Pick(choice == "keep")})
            elif choice == "hunks" and row["change"] == "edited":
                view = await stage.file(row["path"])
                pending = [h["index"] for h in view["hunks"] if h["index"] is not None]
                some = frozenset(rnd.sample(pending, rnd.randint(1, len(pending))))
                await decide({row["path"]: Pick(True, some)})
        left = [r["path"] for r in (await stage.review())["files"] if r["state"] == "pending"]
        if left:
            await decide({path: Pick(True) for path in left})
        assert (await stage.review())["pending"] == 0
        assert await snapshot(ws) == expected_after(original, staged, rows, dropped)
        assert await snapshot(stage.workspace()) == await snapshot(ws)

    asyncio.run(run())


@PROFILE
@given(START, OPS)
def test_drop_all_leaves_the_workspace_as_it_was(
    start: dict[str, str], ops: list[tuple[str, str, str]]
) -> None:
    async def run() -> None:
        ws, book = await setup(start, ops)
        original = await snapshot(ws)
        stage = book.stage("c")
        rows = (await stage.review())["files"]
        if rows:
            await stage.decide({row["path"]: Pick(False) for row in rows})
        assert await snapshot(ws) == original
        assert await snapshot(stage.workspace()) == original

    asyncio.run(run())


@PROFILE
@given(TEXT, TEXT, st.randoms(use_true_random=False))
def test_kept_hunks_are_exactly_the_hunks_left(old: str, new: str, rnd: random.Random) -> None:
    every = [h.index for h in hunks(old, new)]
    chosen = set(rnd.sample(every, rnd.randint(0, len(every))))
    assert with_hunks(old, new, set(every)) == new
    assert with_hunks(old, new, set()) == old
    assert len(hunks(old, with_hunks(old, new, chosen))) == len(chosen)
