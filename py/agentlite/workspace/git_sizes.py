"""The size a git object declares, read from its header without inflating its content (docs/git.md).

A loose object starts `<type> <size>\\0` inside its zlib stream: the first bytes are inflated, no more. A
packed object's header (type and size) is plain bytes before its zlib stream; a delta's stream starts with
the size of the object it makes, so a few bytes of it are inflated. The import checks these sizes against
its budget before it reads any content, so a blob that would be too large, or a tree naming one blob
thousands of times, is refused without being inflated (`git_import`).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Iterator

from dulwich.object_format import DEFAULT_OBJECT_FORMAT
from dulwich.objects import ObjectID
from dulwich.pack import load_pack_index

OFS_DELTA, REF_DELTA = 6, 7
HEAD_BYTES = 64  # more than any header: `blob` + 20 digits, or a pack header with a base and two varints


class DeclaredSizes:
    """Sizes of the objects of the repository at `folder` (its `.git`), cached by object id."""

    def __init__(self, folder: str) -> None:
        self.objects = os.path.join(folder, "objects")
        pack_folder = os.path.join(self.objects, "pack")
        names = sorted(os.listdir(pack_folder)) if os.path.isdir(pack_folder) else []
        self.packs = [
            (
                load_pack_index(os.path.join(pack_folder, name), DEFAULT_OBJECT_FORMAT),
                os.path.join(pack_folder, name[:-4] + ".pack"),
            )
            for name in names
            if name.endswith(".idx")
        ]
        self.known: dict[bytes, int] = {}

    def size(self, sha: bytes) -> int:
        """The size `sha` (40 hex digits) declares; ValueError when it is missing or its header is damaged."""
        if sha not in self.known:
            self.known[sha] = self._loose(sha) if self._is_loose(sha) else self._packed(sha)
        return self.known[sha]

    def _path(self, sha: bytes) -> str:
        text = sha.decode("ascii")
        return os.path.join(self.objects, text[:2], text[2:])

    def _is_loose(self, sha: bytes) -> bool:
        return os.path.isfile(self._path(sha))

    def _loose(self, sha: bytes) -> int:
        with open(self._path(sha), "rb") as source:
            head = _inflate_head(source.read(4096))
        kind, _, size = head.partition(b"\0")[0].partition(b" ")
        if not kind or not size.isdigit():
            raise ValueError(f"the object {sha.decode()[:12]} has a damaged header")
        return int(size)

    def loose_blob(self, sha: bytes, limit: int) -> bytes | None:
        """The content of the loose blob `sha`, inflated straight into one buffer of its declared size
        (never past `limit`) and checked against its id; None when it is not a loose object."""
        if not self._is_loose(sha):
            return None
        size = self.size(sha)
        if size > limit:
            raise ValueError(f"the object {sha.decode()[:12]} declares {size} bytes, over the limit")
        header = b"blob " + str(size).encode() + b"\0"
        with open(self._path(sha), "rb") as source:
            stream = source.read()
        inflater = zlib.decompressobj()
        try:
            head = inflater.decompress(stream, len(header))
            content = inflater.decompress(inflater.unconsumed_tail, size + 1)
        except zlib.error as exc:
            raise ValueError(f"the object {sha.decode()[:12]} cannot be inflated ({exc})") from exc
        if head != header or len(content) != size or not inflater.eof:
            raise ValueError(f"the object {sha.decode()[:12]} is not a blob of the size it declares")
        digest = hashlib.sha1(header)
        digest.update(content)
        if digest.hexdigest().encode() != sha:
            raise ValueError(f"the object {sha.decode()[:12]} does not match its id")
        return content

    def _packed(self, sha: bytes) -> int:
        for index, pack in self.packs:
            try:
                offset = index.object_offset(ObjectID(sha))
            except KeyError:
                continue
            with open(pack, "rb") as source:
                source.seek(offset)
                return _pack_entry_size(source.read(HEAD_BYTES + 4096))
        raise ValueError(f"the object {sha.decode()[:12]} is missing")


def _varints(data: bytes, start: int) -> Iterator[tuple[int, int]]:
    """(value, next position) of the little-endian base-128 numbers from `start` on."""
    at = start
    while True:
        value, shift = 0, 0
        while True:
            if at >= len(data):
                raise ValueError("a git object header is cut off")
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        yield value, at


def _pack_entry_size(data: bytes) -> int:
    """A pack entry's declared size: its header's, or for a delta the size of the object it makes."""
    if not data:
        raise ValueError("a pack entry is cut off")
    kind = (data[0] >> 4) & 7
    size, at = data[0] & 0x0F, 1
    shift = 4
    while data[at - 1] & 0x80:
        if at >= len(data):
            raise ValueError("a pack entry header is cut off")
        size |= (data[at] & 0x7F) << shift
        shift += 7
        at += 1
    if kind not in (OFS_DELTA, REF_DELTA):
        return size
    if kind == REF_DELTA:
        at += 20
    else:
        while data[at] & 0x80:
            at += 1
        at += 1
    head = _inflate_head(data[at:])
    numbers = _varints(head, 0)
    next(numbers)  # the size of the base
    return next(numbers)[0]


def _inflate_head(stream: bytes) -> bytes:
    """The first HEAD_BYTES bytes a zlib stream inflates to (never more)."""
    try:
        return zlib.decompressobj().decompress(stream, HEAD_BYTES)
    except zlib.error as exc:
        raise ValueError(f"a git object cannot be inflated ({exc})") from exc
