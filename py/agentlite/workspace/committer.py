"""The narrow interface the workspace's operations work through: `Committer`.

History (`timeline`), archives (`archive`), changes made on a copy (`changeset`), the file operations
(`operations`) and the consistency check (`integrity`) read the heads and contents and commit plans only
through it, never through the Workspace itself: they know nothing of its locks, caches or listeners,
and no module here imports the Workspace. `machinery.Machinery` is the implementation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from agentlite.workspace.blobs import BlobStore
from agentlite.workspace.change_plan import Plan
from agentlite.workspace.records import Entry
from agentlite.workspace.results import Change
from agentlite.workspace.storage import Batch, StorageBackend
from agentlite.workspace.tree import Tree

Build = Callable[[Plan], Awaitable[None]]
"""Describes one change on a Plan (the heads are `plan.tree`); raising stores nothing."""


class Committer(Protocol):
    @property
    def storage(self) -> StorageBackend:
        """The stores themselves, for reading version, commit and blob records."""

    @property
    def blobs(self) -> BlobStore:
        """File contents by sha256 (cached)."""

    async def heads(self) -> Tree:
        """The current heads, reloaded from storage first when memory may be stale."""

    async def text_of(self, entry: Entry) -> str | None:
        """The decoded text of a file's content; None for binary content."""

    async def texts_of(self, entries: Sequence[Entry]) -> dict[str, str]:
        """sha256 -> decoded text for the text files among `entries`."""

    @property
    def max_file_size(self) -> int:
        """The per-file limit in bytes (imports inflate no content past it)."""

    def check_size(self, path: str, size: int) -> None:
        """FileTooLarge when `size` bytes are over the per-file limit."""

    async def mutate(
        self, build: Build, turn: str | None, author: str | None, *, strict: bool = True
    ) -> Change:
        """Run `build` on a Plan of the current heads and commit the result as ONE batch, under the locks.

        `strict=False` drops the targets that conflict and reports them in `Change.skipped`."""

    async def store_history(self, batch: Batch, replace: bool = False) -> None:
        """Store a whole history (`batch`) into this empty workspace in one commit, then load it; with
        `replace`, in place of everything the workspace holds, in that same commit."""
