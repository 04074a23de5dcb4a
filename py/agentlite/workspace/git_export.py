"""The workspace as a git repository: a zip of the working tree with its `.git/` (docs/git.md).

The stored commits are replayed oldest first; when the last commit of a recorded turn is reached, the
files of that moment become one git commit: author = the turn's author (agent, user, disk ...), time =
the turn's time, message = the `notes` the caller gives for the turn (the chat's request and its tool
calls) or, without one, what the commits say they were (an import, an undo) and the paths they changed.
A turn whose changes leave the tree as it was (an empty folder, a file made and deleted again) makes no
commit: git records files only. The zip holds the files at HEAD byte for byte, the empty folders, and
`.git/` with HEAD on `main`, the objects in one pack and an index, so `git status` is clean at once.
Paths with a `.git` part cannot be in a git tree and are left out (docs/git.md says so).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Mapping

from dulwich.index import IndexEntry, write_index_dict
from dulwich.objects import ObjectID

from agentlite.workspace import git_objects, paths
from agentlite.workspace.archive import add_member
from agentlite.workspace.committer import Committer
from agentlite.workspace.names import has_git_dir
from agentlite.workspace.records import Commit, Turn, Version
from agentlite.workspace.timeline import commits
from agentlite.workspace.tree import Tree
from agentlite.workspace.turns import DEFAULT_AUTHOR, DISK_AUTHOR

BRANCH = "main"
CONFIG = (
    b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
)
LISTED_PATHS = 20  # changed paths named in a commit message without notes
BATCH_COMMITS = 100  # commits whose new contents are read from storage together
WHO = {DEFAULT_AUTHOR: "Changes by the user", "agent": "Changes by the agent", DISK_AUTHOR: "Changes on disk"}


def in_git(path: str) -> bool:
    """False for a path git refuses in a tree (a name Windows or macOS read as `.git`: names.py)."""
    return not has_git_dir(path)


class _Replay:
    """The files of each moment of the history, and the git commits made from them."""

    def __init__(self, committer: Committer, notes: Mapping[str, str]) -> None:
        self.committer, self.notes = committer, notes
        self.trees = git_objects.GitTrees()
        self.blob_ids: dict[str, ObjectID] = {}  # workspace sha256 -> git blob id
        self.head: ObjectID | None = None
        self.head_tree: ObjectID | None = None
        self.made = 0

    async def prefetch(self, records: list[Version]) -> None:
        """The blobs of `records` not made yet, read in one batch (one storage read, not one per version)."""
        wanted = {
            r.sha256 for r in records if r.kind == "file" and r.sha256 and r.sha256 not in self.blob_ids
        }
        for sha256, data in (await self.committer.blobs.read_many(sorted(wanted))).items():
            self.blob_ids[sha256] = self.trees.keep(git_objects.blob(data))

    def apply(self, record: Version) -> None:
        if not in_git(record.path) and not (record.source and in_git(record.source)):
            return
        old = record.source if record.op == "move" and record.source else record.path
        if record.kind == "file" and in_git(old):
            self.trees.remove(old)
        if record.kind == "file" and record.live and record.sha256 and in_git(record.path):
            self.trees.put(record.path, self.blob_ids[record.sha256])

    def end_turn(self, turn: Turn, own: list[Commit]) -> None:
        tree = self.trees.root()
        if tree == self.head_tree:
            return
        message = self.notes.get(turn.turn) or _describe(own, turn.author)
        message = f"{message.rstrip()}\n\nAgentLite-Turn: {turn.turn}\n"
        made = git_objects.commit(tree, self.head, turn.author, int(turn.time), message)
        self.head, self.head_tree = self.trees.keep(made), tree
        self.made += 1


def _describe(own: list[Commit], author: str) -> str:
    """A message from the commits themselves: their notes (import, undo ...) and the paths changed."""
    notes = list(dict.fromkeys(c.note for c in own if c.note))
    changed = list(dict.fromkeys(p for c in own for p in c.paths))
    first = "; ".join(notes) if notes else WHO.get(author, f"Changes by {author}")
    shown = "\n".join(changed[:LISTED_PATHS])
    more = f"\n... and {len(changed) - LISTED_PATHS} more" if len(changed) > LISTED_PATHS else ""
    return f"{first}\n\n{shown}{more}"


async def export_git(committer: Committer, notes: Mapping[str, str]) -> tuple[bytes, int]:
    """The zip, and how many commits it holds."""
    tree = await committer.heads()
    versions = {
        (record.id, record.version): record
        for record in (Version.from_json(value) for _key, value in await committer.storage.scan("versions"))
    }
    replay = _Replay(committer, notes)
    own: dict[str, list[Commit]] = {}
    stored = await commits(committer, 1, tree.meta.commit)  # what `tree` holds, not a later change
    for start in range(0, len(stored), BATCH_COMMITS):
        batch = stored[start : start + BATCH_COMMITS]
        await replay.prefetch([versions[pair] for commit in batch for pair in commit.changes])
        for commit in batch:
            for pair in commit.changes:
                replay.apply(versions[pair])
            own.setdefault(commit.turn, []).append(commit)
            turn = tree.turns.get(commit.turn)
            if turn is not None and turn.last == commit.number:
                replay.end_turn(turn, own.pop(commit.turn))
    return await _zip(committer, tree, replay), replay.made


async def _zip(committer: Committer, tree: Tree, replay: _Replay) -> bytes:
    live = [entry for entry in tree.below(paths.ROOT) if in_git(entry.path)]
    contents = await committer.blobs.read_many(e.sha256 for e in live if e.sha256)
    buffer = io.BytesIO()
    index: dict[bytes, IndexEntry] = {}
    with zipfile.ZipFile(buffer, "w") as archive:
        for entry in live:
            if entry.kind == "dir":
                add_member(archive, entry.path[1:] + "/", b"")
                continue
            data = contents[entry.sha256 or ""]
            add_member(archive, entry.path[1:], data)
            blob_id = replay.blob_ids.get(entry.sha256 or "") or git_objects.blob(data).id
            index[entry.path[1:].encode()] = IndexEntry(
                0, 0, 0, 0, git_objects.FILE_MODE, 0, 0, len(data), blob_id
            )
        _add_git_dir(archive, replay, index)
    return buffer.getvalue()


def _add_git_dir(archive: zipfile.ZipFile, replay: _Replay, index: dict[bytes, IndexEntry]) -> None:
    for folder in (".git/", ".git/objects/", ".git/objects/pack/", ".git/refs/", ".git/refs/heads/"):
        add_member(archive, folder, b"")
    add_member(archive, ".git/HEAD", f"ref: refs/heads/{BRANCH}\n".encode())
    add_member(archive, ".git/config", CONFIG)
    if replay.head is None:
        return
    add_member(archive, f".git/refs/heads/{BRANCH}", replay.head + b"\n")
    name, pack, pack_index = git_objects.pack(list(replay.trees.objects.values()))
    add_member(archive, f".git/objects/pack/{name}.pack", pack, packed=False)
    add_member(archive, f".git/objects/pack/{name}.idx", pack_index)
    written = io.BytesIO()
    write_index_dict(written, index)
    content = written.getvalue()  # the index ends with the SHA-1 of what comes before it
    add_member(archive, ".git/index", content + hashlib.sha1(content).digest())
