"""Imports that arrive in parts: the page reads a local folder in batches (so a 10,000-file folder never
freezes it) and sends each batch here; the staged files become ONE recorded change at the end
(`Workspace.import_files`). A staged import holds its files in memory until then, within a total limit.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from agentlite.limits import IMPORT_BYTES, IMPORT_FILES
from agentlite.workspace import paths
from agentlite.workspace.workspace_errors import FileTooLarge, InvalidArgument, size_text

MAX_STAGED_BYTES = IMPORT_BYTES  # the same bound as a zip import's unpacked size
MAX_STAGED_IMPORTS = 4  # imports begun and never finished (a closed dialog, a failed read) are dropped


@dataclass
class StagedImport:
    files: dict[str, bytes] = field(default_factory=dict)
    folders: set[str] = field(default_factory=set)
    size: int = 0


class ImportStaging:
    """Staged imports by id: `begin`, `add` batches, then `take` the whole import to commit it."""

    def __init__(self, max_bytes: int = MAX_STAGED_BYTES) -> None:
        self.max_bytes = max_bytes
        self._imports: dict[str, StagedImport] = {}
        self._ids = itertools.count(1)

    def begin(self) -> str:
        while len(self._imports) >= MAX_STAGED_IMPORTS:
            del self._imports[next(iter(self._imports))]
        key = f"import-{next(self._ids)}"
        self._imports[key] = StagedImport()
        return key

    def add(self, key: str, files: dict[str, bytes], folders: list[str], max_file_size: int) -> StagedImport:
        """Stage a batch: paths and sizes are checked now, so a bad file fails at once, not after 10,000."""
        staged = self._get(key)
        for path, data in files.items():
            normal = paths.normalize(path)
            if len(data) > max_file_size:
                self.cancel(key)
                raise FileTooLarge(
                    f"{normal} is {size_text(len(data))}; the limit is {size_text(max_file_size)} per file",
                    path=normal,
                )
            staged.size += len(data) - len(staged.files.get(normal, b""))
            staged.files[normal] = data
        staged.folders.update(paths.normalize(folder) for folder in folders)
        if len(staged.files) > IMPORT_FILES:
            del self._imports[key]
            raise InvalidArgument(
                f"the import has more than {IMPORT_FILES:,} files; import a part of the folder"
            )
        if staged.size > self.max_bytes:
            del self._imports[key]
            raise InvalidArgument(
                f"the import is over {size_text(self.max_bytes)}; import a smaller folder or a part of it"
            )
        return staged

    def take(self, key: str) -> StagedImport:
        staged = self._get(key)
        del self._imports[key]
        return staged

    def cancel(self, key: str) -> None:
        self._imports.pop(key, None)

    def _get(self, key: str) -> StagedImport:
        staged = self._imports.get(key)
        if staged is None:
            raise InvalidArgument(f"no import {key!r} is under way (it was finished, cancelled or dropped)")
        return staged
