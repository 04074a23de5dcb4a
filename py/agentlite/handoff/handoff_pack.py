"""The blob pack: every stored blob of a project in ONE member, `blobs.pack` (docs/handoff-format.md).

One member instead of one per blob: a 10,000-version history was 10,000 zip headers, CRCs and manifest
digests, most of the file's bytes and most of the time to write and read it. The pack is, blob after
blob in sha256 order, the blob's name (its 32-byte sha256, raw), the length of its stored form (4 bytes,
big-endian) and the stored form itself. The manifest's digest covers the whole pack; each blob is then
checked against its name (`history_import.content_problems`). When the pack differs from its digest,
`changed_blobs` names the blobs that no longer decode to their names, so the refusal names them.
"""

from __future__ import annotations

import hashlib
import struct

from agentlite.handoff.handoff_format import HandoffRefused
from agentlite.limits import IMPORT_BYTES, IMPORT_FILES
from agentlite.workspace import delta
from agentlite.workspace.history_import import whole_digest
from agentlite.workspace.import_budget import Budget, inflate
from agentlite.workspace.workspace_errors import WorkspaceError

PACK = "blobs.pack"
HEAD = struct.Struct(">32sI")  # a blob's sha256 (raw) and the length of its stored form


def pack_blobs(blobs: dict[str, bytes]) -> bytes:
    """The pack of `blobs` (sha256 hex -> stored form), in sha256 order."""
    parts: list[bytes] = []
    for sha, value in sorted(blobs.items()):
        parts += (HEAD.pack(bytes.fromhex(sha), len(value)), value)
    return b"".join(parts)


def unpack_blobs(data: bytes) -> dict[str, bytes]:
    """sha256 hex -> stored form; a pack cut off, out of order or of too many blobs is refused."""
    blobs: dict[str, bytes] = {}
    at, last = 0, b""
    while at < len(data):
        if at + HEAD.size > len(data):
            raise HandoffRefused(f"{PACK} is cut off; nothing was opened")
        name, size = HEAD.unpack_from(data, at)
        at += HEAD.size
        if at + size > len(data):
            raise HandoffRefused(f"{PACK} is cut off; nothing was opened")
        if name <= last:
            raise HandoffRefused(f"{PACK} holds its blobs out of order or twice; nothing was opened")
        if len(blobs) >= IMPORT_FILES:
            raise HandoffRefused(f"{PACK} holds more than {IMPORT_FILES:,} blobs; nothing was opened")
        blobs[name.hex()] = data[at : at + size]
        at, last = at + size, name
    return blobs


def changed_blobs(data: bytes) -> list[str]:
    """The names of the pack's blobs whose stored form no longer decodes to content of that sha256;
    [] when none can be named. The naming only words a refusal: it stops after `IMPORT_BYTES` decoded."""
    try:
        blobs = unpack_blobs(data)
    except HandoffRefused:
        return []
    naming = _Naming(blobs)
    found = []
    for sha, value in blobs.items():
        if naming.spent > IMPORT_BYTES:
            break
        if not naming.sound(sha, value):
            found.append(sha)
    return found


class _Naming:
    """Decodes the pack's blobs, each within the per-file limit and each base once, counting the bytes."""

    def __init__(self, blobs: dict[str, bytes]) -> None:
        self.blobs = blobs
        self.limit = Budget().file_bytes
        self.spent = 0
        self.wholes: dict[str, bool] = {}

    def sound(self, sha: str, value: bytes) -> bool:
        """Whether the blob decodes to its name; a delta on a base that changed counts as sound, as the
        base is the blob that is named."""
        if value[:1] in (b"F", b"Z"):
            return self._whole(sha, value)
        base_sha = value[1:65].decode("latin-1")
        base = self.blobs.get(base_sha, b"")
        if base[:1] not in (b"F", b"Z"):
            return False
        return not self._whole(base_sha, base) or self._delta(value, base) == sha

    def _whole(self, sha: str, value: bytes) -> bool:
        if sha not in self.wholes:
            try:
                digest, size = whole_digest(value, self.limit, sha)
            except WorkspaceError:
                digest, size = "", self.limit
            self.spent += size
            self.wholes[sha] = digest == sha
        return self.wholes[sha]

    def _delta(self, value: bytes, base: bytes) -> str | None:
        """The sha256 of what a delta on a sound whole `base` decodes to (None when it does not)."""
        try:
            ops = value[65:] if value[:1] == b"D" else inflate(value[65:], 2 * self.limit, "a delta")
            whole = base[1:] if base[:1] == b"F" else inflate(base[1:], self.limit, "a blob")
            steps = delta.parse(ops, len(whole))
        except WorkspaceError:
            self.spent += self.limit
            return None
        made = sum(length for _offset, length, _data in steps)
        self.spent += len(whole) + min(made, self.limit)
        if made > self.limit:
            return None
        return hashlib.sha256(
            b"".join(data if at < 0 else whole[at : at + length] for at, length, data in steps)
        ).hexdigest()
