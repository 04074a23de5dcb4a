"""The workspace: a versioned virtual file system (paths, files, folders, blobs, versions, turns).

Pure Python over a `StorageBackend` (`MemoryStorage` here, `IndexedDBStorage` in agentlite.browser).
Key layout of the stores (all keys are strings, values JSON strings unless said otherwise):

- `meta`     "state"                     -> {schema, next_id, commit}
- `entries`  "<id:010d>"                 -> the head of one file or folder (Entry)
- `versions` "<id:010d>:<version:010d>"  -> one version record (Version)
- `blobs`    "<sha256 hex>"              -> bytes: the content, whole or as a delta on a whole blob
- `commits`  "<commit:012d>"             -> one atomic change: turn, author, time, [(id, version)], paths
- `turns`    "<turn id>"                 -> {turn, author, time, first, last, commits}
"""

from agentlite.workspace.change_plan import Skipped
from agentlite.workspace.changeset import ChangeSet
from agentlite.workspace.diffs import Hunk
from agentlite.workspace.edits import BlockResult, EditBlock
from agentlite.workspace.pages import Page
from agentlite.workspace.records import Version
from agentlite.workspace.search import Hit, SearchResult
from agentlite.workspace.storage import Batch, MemoryStorage, StorageBackend
from agentlite.workspace.workspace import Change, EditResult, Workspace
from agentlite.workspace.workspace_errors import (
    AlreadyExists,
    BadPattern,
    Conflict,
    CorruptData,
    FileTooLarge,
    InvalidArgument,
    InvalidPath,
    NotADirectory,
    NotAFile,
    NotFound,
    StaleState,
    StorageClosed,
    StorageError,
    StorageFull,
    WorkspaceError,
)

__all__ = [
    "AlreadyExists",
    "BadPattern",
    "Batch",
    "BlockResult",
    "Change",
    "ChangeSet",
    "Conflict",
    "CorruptData",
    "EditBlock",
    "EditResult",
    "FileTooLarge",
    "Hit",
    "Hunk",
    "InvalidArgument",
    "InvalidPath",
    "MemoryStorage",
    "NotADirectory",
    "NotAFile",
    "NotFound",
    "Page",
    "SearchResult",
    "Skipped",
    "StaleState",
    "StorageBackend",
    "StorageClosed",
    "StorageError",
    "StorageFull",
    "Version",
    "Workspace",
    "WorkspaceError",
]
