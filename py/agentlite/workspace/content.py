"""File contents: text is UTF-8 without NUL bytes, anything else is binary (reported by size and type)."""

from __future__ import annotations

import hashlib

from agentlite.workspace.workspace_errors import InvalidArgument

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"%PDF-", "application/pdf"),
    (b"PK\x03\x04", "application/zip"),
    (b"\x00asm", "application/wasm"),
    (b"\x1f\x8b", "application/gzip"),
    (b"RIFF", "application/octet-stream"),
)


def to_bytes(content: str | bytes | bytearray | memoryview) -> bytes:
    """The stored form of content given as text or bytes."""
    if isinstance(content, str):
        try:
            return content.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidArgument(f"the text cannot be stored as UTF-8 ({exc.reason})") from exc
    if isinstance(content, bytes | bytearray | memoryview):
        return bytes(content)
    raise InvalidArgument(f"file content must be text or bytes, not {type(content).__name__}")


def decode_text(data: bytes) -> str | None:
    """The text of `data`, or None when it is binary."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def guess_type(path: str, data: bytes | None = None) -> str:
    """A MIME type from the leading bytes, else from the file name."""
    if data is not None:
        for magic, kind in _MAGIC:
            if data.startswith(magic):
                if kind == "application/octet-stream" and data[8:12] == b"WEBP":
                    return "image/webp"
                return kind
    import mimetypes  # here: compiled from source on a first visit, and rarely needed (docs/startup.md)

    guessed, _encoding = mimetypes.guess_type(path, strict=False)
    return guessed or "application/octet-stream"
