"""One chat's stage: a layer over the workspace its turns write on, reviewed and kept by the user.

The stage's workspace (`workspace()`) is a real `Workspace` over a `LayeredStorage`, so every tool works
on it unchanged. Deciding (`decide`, `resolve`) writes what is kept into the workspace as ONE change of the
stage's turn; a file settled (kept or dropped whole) then leaves the layer, so the workspace shows
through, and a file partly decided holds its pending hunks. Once nothing is pending the next change
starts a new layer; the old one stays stored: nothing the agent wrote is lost, kept or not.
See docs/stage.md.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentlite.stage.dropped import DroppedProposal, hunks_diff, puts, whole_file_diff
from agentlite.stage.hunk_pick import with_hunks
from agentlite.stage.layers import LayeredStorage, PrefixedStorage
from agentlite.stage.stage_changes import FileChange, stage_changes
from agentlite.stage.stage_review import file_view, review_rows
from agentlite.stage.stage_state import StageState, layer_prefix, load_state, save_state
from agentlite.workspace import Workspace, diffs, text_merge
from agentlite.workspace.content import decode_text
from agentlite.workspace.operations import FileState, Stored
from agentlite.workspace.records import Turn, entry_key
from agentlite.workspace.storage import Batch
from agentlite.workspace.workspace_errors import Conflict, InvalidArgument, NotFound

AUTHOR = "agent"
KEPT_NOTE = "kept from the review"
Wanted = tuple[str, bytes | Stored] | None  # a file's path and content, or no file


@dataclass(frozen=True)
class Pick:
    """A decision on one file: keep or drop it whole, or these hunks of it (the others stay pending)."""

    keep: bool
    hunks: frozenset[int] | None = None


class Stage:
    def __init__(self, base: Workspace, chat: str, state: StageState, changed: Callable[[], None]) -> None:
        self.base = base
        self.chat = chat
        self.state = state
        self._changed = changed  # the stage changed: the page hears of it
        self._workspace: Workspace | None = None
        self._layer = 0
        self._dropped: list[DroppedProposal] = []  # this decision's, saved with the state (stage.dropped)
        self.busy = asyncio.Lock()  # one review or decision at a time (StageBook.using)

    def _top(self) -> PrefixedStorage:
        """The current layer's own records."""
        return PrefixedStorage(self.base.storage, layer_prefix(self.chat, self.state.layer))

    def workspace(self) -> Workspace:
        """The workspace as this stage shows it (made on first use, made again for a new layer)."""
        if self._workspace is None or self._layer != self.state.layer:
            storage = LayeredStorage(self._top(), self.base.storage)
            self._workspace = Workspace.on_first_use(
                storage, max_file_size=self.base.max_file_size, over=self.base
            )
            self._workspace.add_listener(lambda _change: self._changed())
            self._layer = self.state.layer
        return self._workspace

    def below_changed(self) -> None:
        """The workspace changed (here or in another tab): the stage shows it from its next use on."""
        if self._workspace is not None:
            self._workspace.mark_stale()

    async def reload(self) -> None:
        self.state = await load_state(self.base.storage, self.chat)

    async def changes(self, fresh: bool = True) -> list[FileChange]:
        """The files the stage changes; `fresh` reads the stage again first (another tab may have
        decided), else as this worker last saw it (the count after each staged write)."""
        if not await self._top().keys("entries"):
            return []  # nothing staged (a change of any kind writes its file's entry): no need to read it all
        staged = self.workspace()
        if fresh:
            await staged.refresh()
        tree = await staged.heads()
        return await stage_changes(await self.base.heads(), tree, self._top(), self.state.starts)

    async def turn(self) -> str | None:
        turns = [Turn.from_json(raw) for _key, raw in await self._top().scan("turns")]
        return max(turns, key=lambda t: t.last).turn if turns else self.state.turn

    async def review(self, changes: list[FileChange] | None = None) -> dict[str, Any]:
        every = changes if changes is not None else await self.changes()
        found = [c for c in every if not c.hidden]
        rows = await review_rows(self, found)
        held = [
            r["path"]
            for r in rows
            if r["instructions"] and r["state"] == "pending" and r["path"] not in self.state.shown
        ]
        return {
            "chat": self.chat,
            "turn": await self.turn() if found else None,
            "pending": len(found),
            "held": held,
            "files": rows,
        }

    async def file(self, path: str) -> dict[str, Any]:
        found = {c.path: c for c in await self.changes() if not c.hidden}
        if path not in self.state.shown:
            self.state.shown.append(path)
            await save_state(self.base.storage, self.chat, self.state)
        return await file_view(self, found.get(path), path)

    async def contents(self, change: FileChange) -> tuple[bytes | None, bytes | None]:
        """The file's content in the workspace now and on the stage (None where there is none)."""
        before = None
        if change.now is not None and change.now.live:
            before = await self.base.read_bytes(change.now.path)
        after = await self.workspace().read_bytes(change.path) if change.staged.live else None
        return before, after

    # --- deciding ----------------------------------------------------------------------------------

    async def decide(self, picks: dict[str, Pick]) -> dict[str, Any]:
        self._dropped = []  # a decision refused half way leaves none behind
        changes = await self.changes()
        by_path = {c.path: c for c in changes if not c.hidden}
        chosen: list[tuple[FileChange, Pick]] = []
        for path, pick in picks.items():
            change = by_path.get(path)
            if change is None:
                raise NotFound(f"{path} has no pending change on the stage", path=path)
            chosen.append((change, pick))
        outcomes: list[tuple[FileChange, Outcome]] = []
        for change, pick in with_companions(changes, chosen):
            if change.conflict:
                raise Conflict(
                    f"{change.path} changed in the workspace meanwhile: resolve it first", path=change.path
                )
            outcomes.append((change, await self._outcome(change, pick)))
        return await self._settle(outcomes)

    async def resolve(self, path: str, take: str) -> dict[str, Any]:
        self._dropped = []
        change = next((c for c in await self.changes() if c.path == path and c.conflict), None)
        if change is None:
            raise NotFound(f"{path} has no conflict on the stage", path=path)
        before, after = await self.contents(change)
        if take == "theirs":
            self._record(change, "dropped")
            await self._note_dropped(change, whole_file_diff(change.path, change.source, before, after))
            return await self._settle([(change, Outcome(False, _now(change, before), True))])
        if take not in ("ours", "merged"):
            raise InvalidArgument("take is ours, theirs or merged")
        wanted = await self._resolved(change, before, after, take)
        self._record(change, "kept")
        return await self._settle([(change, Outcome(wanted, wanted, True))])

    async def _resolved(
        self, change: FileChange, before: bytes | None, after: bytes | None, take: str
    ) -> Wanted:
        if take == "ours":
            return None if after is None else (change.path, after)
        start, ours, theirs = await self.start_text(change), _text(after), _text(before)
        merged = None if ours is None or theirs is None else text_merge.merge(start or "", ours, theirs)
        if merged is None:
            raise Conflict(
                f"{change.path}: both changes touch the same lines; take ours or theirs", path=change.path
            )
        return (change.path, merged.encode())

    async def start_text(self, change: FileChange) -> str | None:
        if change.start is None or change.now is None or change.now.id != change.staged.id:
            return None
        return _text(await self.base.read_version(change.before_path, change.start))

    async def _outcome(self, change: FileChange, pick: Pick) -> Outcome:
        if pick.hunks is None or change.change != "edited" or change.binary:
            self._record(change, "kept" if pick.keep else "dropped")
            if not pick.keep:
                before, after = await self.contents(change)
                await self._note_dropped(change, whole_file_diff(change.path, change.source, before, after))
            entry = change.staged
            stored = Stored(entry.sha256 or "", entry.size, entry.binary)
            staged: Wanted = (change.path, stored) if entry.live and entry.sha256 else None
            return Outcome(staged, staged, True) if pick.keep else Outcome(False, None, True)
        before, after = await self.contents(change)
        old, new = _text(before) or "", _text(after) or ""
        every = {h.index for h in diffs.hunks(old, new)}
        chosen = set(pick.hunks) & every
        left = every - chosen
        self._record_hunks(change, old, new, chosen, pick.keep, done=not left)
        if not pick.keep and chosen:
            dropped = self.state.hunks[change.path][-len(chosen) :]
            await self._note_dropped(change, hunks_diff(change.path, dropped), len(chosen))
        kept = chosen if pick.keep else set()
        to_base: Wanted | bool = (change.path, with_hunks(old, new, kept).encode()) if kept else False
        return Outcome(to_base, (change.path, with_hunks(old, new, kept | left).encode()), not left)

    def _record(self, change: FileChange, state: str) -> None:
        self.state.decided[change.path] = {"state": state, "change": change.change, "source": change.source}

    async def _note_dropped(self, change: FileChange, diff: str, hunks: int = 0) -> None:
        """A dropped proposal, for the file's history (`hunks` dropped of it; 0: the whole file)."""
        if change.hidden:
            return  # a deletion that goes with the file taking its path: that file's proposal tells it
        turn, at = await self.turn(), time.time()
        self._dropped.append(
            DroppedProposal(change.before_path, self.chat, turn, at, change.change, change.path, diff, hunks)
        )

    def _record_hunks(
        self, change: FileChange, old: str, new: str, chosen: set[int], keep: bool, done: bool
    ) -> None:
        log = self.state.hunks.setdefault(change.path, [])
        state = "kept" if keep else "dropped"
        log += [
            {"header": h.header, "lines": [ln.rstrip("\n") for ln in h.lines], "state": state}
            for h in diffs.hunks(old, new)
            if h.index in chosen
        ]
        if done:
            self._record(change, "kept" if any(h["state"] == "kept" for h in log) else "dropped")

    async def _settle(self, outcomes: list[tuple[FileChange, Outcome]]) -> dict[str, Any]:
        """Keep what is kept (ONE change of the stage's turn); then a settled file leaves the layer (the
        workspace shows through) and a partly decided one holds what is still pending."""
        turn = await self.turn()
        kept = [_state(c, o.to_base) for c, o in outcomes if o.to_base is not False]
        self.base.learn_contents({c.staged.sha256: c.staged.base for c, _o in outcomes if c.staged.sha256})
        if kept:
            await self.base.set_files(kept, note=KEPT_NOTE, turn=turn, author=AUTHOR)
        top = self._top()
        settled = [c for c, o in outcomes if o.done]
        if settled:
            await top.commit(Batch(deletes=[("entries", entry_key(c.staged.id)) for c in settled]))
        partial = [(c, o) for c, o in outcomes if not o.done]
        if partial:
            await self.workspace().set_files(
                [_state(c, o.to_stage) for c, o in partial], note="stage", turn=turn, author=AUTHOR
            )
        for change, outcome in outcomes:
            self.state.starts.pop(str(change.staged.id), None)
            head = self.base.tree.entries.get(change.staged.id)
            if not outcome.done and outcome.to_base is not False and head is not None:
                self.state.starts[str(change.staged.id)] = head.version
        self.workspace().mark_stale()
        left = await self.changes()
        self.state.turn = turn
        review = await self.review(left)  # the last decisions are listed even when nothing is left
        if not left:
            self.state = self.state.closed()
        dropped, self._dropped = self._dropped, []
        await save_state(self.base.storage, self.chat, self.state, puts(dropped))
        self._changed()
        return review


def with_companions(
    changes: list[FileChange], chosen: list[tuple[FileChange, Pick]]
) -> list[tuple[FileChange, Pick]]:
    """The files that must be decided with the chosen ones, for paths to stay one file each: a file kept
    at a path takes along the change of the file the workspace has there (moved away or deleted on the
    stage); a file dropped back to its path takes along the change of the file the stage put there."""
    in_workspace = {c.now.path: c for c in changes if c.now is not None and c.now.live}
    on_stage = {c.path: c for c in changes if c.staged.live}
    hidden = {c.path: c for c in changes if c.hidden}
    result = list(chosen)
    taken = {id(change) for change, _pick in chosen}
    index = 0
    while index < len(result):
        change, pick = result[index]
        index += 1
        if pick.hunks is not None and change.change == "edited":
            continue
        if pick.keep:
            found = [in_workspace.get(change.path)]
        else:
            back = change.now is not None and change.now.live
            found = [on_stage.get(change.before_path) if back else None, hidden.get(change.path)]
        for other in found:
            if other is not None and id(other) not in taken:
                taken.add(id(other))
                result.append((other, Pick(pick.keep)))
    return result


@dataclass(frozen=True)
class Outcome:
    """One file's decision: what goes into the workspace (False: nothing), what the stage then holds,
    and whether the file is settled (nothing of it left pending)."""

    to_base: Wanted | bool
    to_stage: Wanted
    done: bool


def _text(data: bytes | None) -> str | None:
    return None if data is None else decode_text(data)


def _now(change: FileChange, before: bytes | None) -> Wanted:
    return None if before is None or change.now is None else (change.now.path, before)


def _state(change: FileChange, wanted: Wanted | bool) -> FileState:
    """The file state for `set_files`: a file the workspace has (the same entry, or the one a created file
    meets) is written in place; a new one is created."""
    eid = change.now.id if change.now is not None else None
    if wanted is None or wanted is False or wanted is True:
        return (eid, None, None)
    return (eid, wanted[0], wanted[1])
