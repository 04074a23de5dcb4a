"""Typed workspace errors. Every message is written to be shown to a user or sent back to a model.

Tools catch `WorkspaceError` and return `str(error)` as the tool result; anything else is a bug.
`code` is a stable machine-readable name for the UI and tests.
"""

from __future__ import annotations

from typing import Any


class WorkspaceError(Exception):
    """Base of every error the workspace raises on purpose."""

    code = "workspace"

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "path": self.path}


class InvalidPath(WorkspaceError):
    """A path that can never name a file: `..` above the root, control characters, names too long."""

    code = "invalid_path"


class InvalidArgument(WorkspaceError):
    """A bad argument other than a path: a line number, a turn id, a glob, an option."""

    code = "invalid_argument"


class NotFound(WorkspaceError):
    code = "not_found"


class AlreadyExists(WorkspaceError):
    code = "already_exists"


class NotAFile(WorkspaceError):
    """The path is a folder where a file was needed (or a binary file where text was needed)."""

    code = "not_a_file"


class NotADirectory(WorkspaceError):
    code = "not_a_directory"


class FileTooLarge(WorkspaceError):
    code = "file_too_large"


class BadPattern(WorkspaceError):
    """A search regex that does not compile."""

    code = "bad_pattern"


class Conflict(WorkspaceError):
    """A change that would overwrite newer work, or that no longer applies to the current text."""

    code = "conflict"


class StorageError(WorkspaceError):
    """The storage backend failed: nothing of the change was stored, and nothing stored before was lost."""

    code = "storage"


class StorageFull(StorageError):
    """The browser refused to store more (quota exceeded)."""

    code = "storage_full"


class StorageClosed(StorageError):
    """This tab may no longer write: a newer version of the app opened the storage in another tab."""

    code = "storage_closed"


class StaleState(StorageError):
    """Another tab changed the workspace since this one last read it; reload and retry."""

    code = "stale"


class CorruptData(StorageError):
    """Stored data does not match its checksum or format."""

    code = "corrupt"


def size_text(size: int) -> str:
    """A human size: `512 bytes`, `1.5 KB`, `12.3 MB`."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"
