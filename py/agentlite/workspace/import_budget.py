"""What one import may bring in, checked on what it declares BEFORE anything is inflated.

Every import (a zip of files, a history, a git working copy, a local folder) first adds up the sizes its
source declares: a zip's central directory, a git object's header, a history's version records, a
`File.size` on the page. The total counts every file the import would create, so a git tree naming one
8 MB blob 450 times counts 3.6 GB and is refused, although the blob would be held (and stored) once.
Then every content is inflated through `read_member` or `inflate`, which never produce more than the
per-file limit plus one byte, so a source whose data is larger than it declared is refused too.
The numbers are `limits.IMPORT_BYTES`, `IMPORT_FILES` and the workspace's per-file limit.
"""

from __future__ import annotations

import zipfile
import zlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from agentlite.limits import FILE_BYTES, IMPORT_BYTES, IMPORT_FILES
from agentlite.workspace.workspace_errors import CorruptData, FileTooLarge, InvalidArgument, size_text


@dataclass
class Budget:
    """A running account of the files an import would create; raises at the first one over a limit."""

    file_bytes: int = FILE_BYTES
    total_bytes: int = IMPORT_BYTES
    max_files: int = IMPORT_FILES
    source: str = "the archive"
    files: int = 0
    total: int = 0
    seen: set[str] = field(default_factory=set)

    def add(self, path: str, size: int) -> None:
        """Count one file of `size` declared bytes at `path` (a second file at one path is refused)."""
        if path in self.seen:
            raise InvalidArgument(f"{self.source} has two files at {path}; nothing was imported", path=path)
        self.seen.add(path)
        self.check_file(path, size)
        self.files += 1
        self.total += size
        if self.files > self.max_files:
            raise InvalidArgument(
                f"{self.source} holds more than {self.max_files:,} files; nothing was imported"
            )
        if self.total > self.total_bytes:
            raise InvalidArgument(
                f"{self.source} would create more than {size_text(self.total_bytes)} of files "
                f"(a file named many times counts each time); nothing was imported"
            )

    def check_file(self, path: str, size: int) -> None:
        if size > self.file_bytes:
            raise FileTooLarge(
                f"{path} in {self.source} is {size_text(size)}; the limit is {size_text(self.file_bytes)} "
                "per file; nothing was imported",
                path=path,
            )


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int, path: str) -> bytes:
    """A zip member's content, never inflating more than `limit` + 1 bytes, nor past the size the zip's
    directory declares (zipfile stops there and checks the CRC: a member larger than declared fails it)."""
    try:
        with archive.open(info) as member:
            data = member.read(min(limit, info.file_size) + 1)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
        raise CorruptData(
            f"{path} in the archive is damaged ({exc}); nothing was imported", path=path
        ) from exc
    if len(data) > limit:
        raise FileTooLarge(
            f"{path} in the archive is over {size_text(limit)}; nothing was imported", path=path
        )
    return data


def inflate(data: bytes, limit: int, what: str) -> bytes:
    """A zlib stream inflated to at most `limit` bytes: more is refused, never produced."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise CorruptData(f"{what} cannot be decompressed") from exc
    if len(out) > limit or inflater.unconsumed_tail:
        raise FileTooLarge(f"{what} inflates to more than {size_text(limit)}")
    if not inflater.eof:
        raise CorruptData(f"{what} is cut off")
    return out


def case_variants(paths: Iterable[str]) -> list[list[str]]:
    """Groups of paths that differ only in case (distinct here, one file on a case-blind disk)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        groups[path.casefold()].append(path)
    return [sorted(group) for group in groups.values() if len(group) > 1]


def case_note(paths: Iterable[str]) -> str:
    """A sentence for the change's note naming the first case-variant groups; "" when there are none."""
    groups = case_variants(paths)
    if not groups:
        return ""
    shown = "; ".join(" and ".join(group) for group in groups[:5])
    return f" (names that differ only in case, one file on a case-blind disk: {shown})"
