"""The chunked streams of the ndjson protocol (docs/protocol.md, ndjson and ndjson-text): start, chunks by
`seq`, end with a hash.

Each stream checks its own integrity: `seq` from 0 rising by 1, valid base64 (or a JSON string in
`ndjson-text`), UTF-8 text, and at the end the sha256 of the decoded bytes (the digest of the concatenated
base64 text is accepted too). The first problem is kept as the stream's `error`; whoever refers to the
stream fails with it. Base64 may be cut anywhere between chunks, and each chunk may carry its own padding.
In `ndjson-text` a chunk may end with the high half of a UTF-16 surrogate pair whose low half opens the next.
"""

from __future__ import annotations

import binascii
import codecs
import hashlib
import re
from typing import Any

from agentlite.stream.surrogates import paired, split_high

_PADDED = re.compile(r"(?<==)(?=[^=])")  # between a padded quantum and the next one
_URLSAFE = str.maketrans("-_", "+/")
_HEX = re.compile(r"[0-9a-fA-F]{64}")


class ChunkStream:
    """One stream's state; `text` is the decoded text so far."""

    def __init__(self, stream_id: str, started: bool = True) -> None:
        self.id = stream_id
        self.started = started
        self.ended = False
        self.error: str | None = None
        self.next_seq = 0
        self.hash_given = False
        self._carry = ""  # base64 characters of an incomplete quantum
        self._high = ""  # ndjson-text: a UTF-16 high half waiting for the next chunk's low half
        self._sent: list[str] = []  # the data as sent, hashed only when the byte digest does not match
        self._bytes = hashlib.sha256()
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="strict")
        self._parts: list[str] = []
        self.length = 0  # characters decoded so far

    @property
    def text(self) -> str:
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    @property
    def ok(self) -> bool:
        return self.ended and self.error is None

    @property
    def sha256(self) -> str:
        return "sha256:" + self._bytes.hexdigest()

    def fail(self, problem: str) -> None:
        if self.error is None:
            self.error = f"stream {self.id}: {problem}"

    def chunk(self, seq: Any, data: Any, base64: bool) -> str:
        """Take one chunk; the newly decoded text ("" when the chunk was refused)."""
        if self.error is not None:
            return ""
        problem = self._check_order(seq)
        if problem is None and not isinstance(data, str):
            problem = "a chunk without data"
        if problem is not None:
            self.fail(problem)
            return ""
        self.next_seq += 1
        self._sent.append(data)
        raw = self._decode_base64(data) if base64 else self._encode(data)
        return "" if raw is None else self._take(raw, final=False)

    def end(self, digest: Any) -> None:
        if self.error is None and self.ended:
            self.fail("ended twice")
        self.ended = True
        if self._high:
            self.fail("the chunk text ends with half of a UTF-16 surrogate pair")
        if self.error is not None:
            return
        if self._carry:
            raw = self._decode_padded(self._carry)
            self._carry = ""
            if raw is None:
                return
            self._take(raw, final=False)
        self._take(b"", final=True)
        self._verify(digest)

    def _check_order(self, seq: Any) -> str | None:
        if self.ended:
            return "a chunk after bs64_end"
        if isinstance(seq, str) and seq.isdigit():
            seq = int(seq)
        if not isinstance(seq, int) or isinstance(seq, bool):
            return f"a chunk without a valid seq (expected {self.next_seq})"
        if seq < self.next_seq:
            return f"seq {seq} repeated (expected {self.next_seq})"
        if seq > self.next_seq:
            missing = f"chunks {self.next_seq}..{seq - 1} are missing"
            return f"seq {seq} where {self.next_seq} was expected ({missing})"
        return None

    def _encode(self, data: str) -> bytes | None:
        text, self._high = split_high(self._high + data)
        whole = paired(text)
        if whole is None:
            self.fail("the chunk text is not valid Unicode (a lone UTF-16 surrogate)")
            return None
        return whole.encode("utf-8")

    def _decode_base64(self, data: str) -> bytes | None:
        if " " in data or "\n" in data or "\r" in data or "\t" in data:
            data = "".join(data.split())
        combined = self._carry + data
        if "-" in combined or "_" in combined:
            combined = combined.translate(_URLSAFE)
        self._carry = ""
        out: list[bytes] = []
        for group in _groups(combined):
            if group.endswith("="):
                raw = self._decode_padded(group)
            else:
                cut = len(group) - len(group) % 4
                raw = self._decode_quanta(group[:cut])
                self._carry = group[cut:]
            if raw is None:
                return None
            out.append(raw)
        return b"".join(out)

    def _decode_padded(self, group: str) -> bytes | None:
        """A final group: complete it with padding when the model left it off (unambiguous)."""
        stripped = group.rstrip("=")
        if len(stripped) % 4 == 1 or len(group) - len(stripped) > 2:
            self.fail("invalid base64 (bad length or padding)")
            return None
        return self._decode_quanta(stripped + "=" * (-len(stripped) % 4))

    def _decode_quanta(self, text: str) -> bytes | None:
        try:
            return binascii.a2b_base64(text, strict_mode=True) if text else b""
        except (binascii.Error, ValueError):
            self.fail("invalid base64")
            return None

    def _take(self, raw: bytes, final: bool) -> str:
        self._bytes.update(raw)
        try:
            text = self._utf8.decode(raw, final=final)
        except UnicodeDecodeError:
            self.fail("the decoded bytes are not UTF-8 text")
            return ""
        if text:
            self._parts.append(text)
            self.length += len(text)
        return text

    def _verify(self, digest: Any) -> None:
        if digest is None or digest == "":
            return
        self.hash_given = True
        value = str(digest).strip()
        algorithm, _, hexdigest = value.rpartition(":")
        if algorithm.lower() not in ("", "sha256") or not _HEX.fullmatch(hexdigest):
            self.fail(f"hash {value[:80]!r} is not 'sha256:<64 hex digits>' (send null when unknown)")
            return
        wanted = hexdigest.lower()
        if wanted != self._bytes.hexdigest() and wanted != self._sent_digest():
            self.fail(f"hash mismatch: got sha256:{wanted}, computed {self.sha256}")

    def _sent_digest(self) -> str:
        sent = "".join(self._sent).encode("utf-8", "surrogatepass")
        return hashlib.sha256(sent).hexdigest()


def _groups(data: str) -> list[str] | tuple[str]:
    """The base64 text cut after each padded quantum; the regex only runs when padding is not at the end."""
    if "=" not in data.rstrip("="):
        return (data,)
    return _PADDED.split(data)


class StreamTable:
    """All streams of one reply, by id; records about unknown streams create them already failed."""

    def __init__(self) -> None:
        self.streams: dict[str, ChunkStream] = {}

    def get(self, stream_id: str) -> ChunkStream | None:
        return self.streams.get(stream_id)

    def start(self, stream_id: str) -> ChunkStream:
        stream = self.streams.get(stream_id)
        if stream is None:
            stream = self.streams[stream_id] = ChunkStream(stream_id)
        elif stream.started:
            stream.fail("bs64_start sent twice")
        return stream

    def chunk(self, stream_id: str, seq: Any, data: Any, base64: bool) -> tuple[ChunkStream, str]:
        stream = self._known(stream_id, "a chunk before bs64_start")
        return stream, stream.chunk(seq, data, base64)

    def end(self, stream_id: str, digest: Any) -> ChunkStream:
        stream = self._known(stream_id, "bs64_end before bs64_start")
        stream.end(digest)
        return stream

    def _known(self, stream_id: str, problem: str) -> ChunkStream:
        stream = self.streams.get(stream_id)
        if stream is None:
            stream = self.streams[stream_id] = ChunkStream(stream_id, started=False)
            stream.fail(problem)
        return stream
