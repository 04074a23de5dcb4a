"""Images a tool returns: checked once, here, before they reach history, the page or a model.

Only raster types a browser shows without running anything and that vision models read: PNG, JPEG,
GIF and WebP. SVG is never accepted (it is a document that can carry script and links, not a
picture). The bytes must start the way the named type does, so a document labelled `image/png` is
refused too. Its header is measured before anything else sees it (`image_size`: pixels on a side and
in all, and frames, within bounds; a malformed header is refused), so a small file that claims
40,000 × 40,000 pixels never reaches an <img> or a model. Each image is at most `MAX_IMAGE_BYTES`
decoded and a result keeps at most `MAX_IMAGES` of them (`MAX_RESULT_BYTES` in all), which bounds what
a chat persists per result. A refused image becomes a line of text saying why, so the model and the
user still learn that it was there.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agentlite import image_size

MAX_IMAGE_BYTES = 4 * 1024 * 1024  # decoded bytes of one image
MAX_IMAGES = 4  # images kept per tool result
MAX_RESULT_BYTES = 8 * 1024 * 1024  # decoded bytes of all the images of one result

# The first bytes each accepted type starts with (WebP: "RIFF", a size, then "WEBP").
_SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
}
ALLOWED_TYPES = tuple(_SIGNATURES)


@dataclass(frozen=True)
class ToolImage:
    """One accepted image: its type and its bytes in base64 (as a `data:` URL carries them)."""

    mime: str
    data: str

    @property
    def size(self) -> int:
        """Decoded bytes."""
        return decoded_size(self.data)

    def to_dict(self) -> dict[str, str]:
        return {"mime": self.mime, "data": self.data}

    def data_url(self) -> str:
        return f"data:{self.mime};base64,{self.data}"

    @classmethod
    def from_dict(cls, value: Any) -> ToolImage | None:
        """An image as persisted or sent, checked again (stored chats may be old or edited)."""
        if not isinstance(value, dict):
            return None
        checked = accept(value.get("mime"), value.get("data"))
        return checked if isinstance(checked, ToolImage) else None


def decoded_size(data: str) -> int:
    return len(data) * 3 // 4 - data[-2:].count("=")


def accept(mime: object, data: object) -> ToolImage | str:
    """The image, or why it is refused (one line, for the model and the user)."""
    kind = str(mime or "").split(";")[0].strip().lower()
    if kind not in _SIGNATURES:
        named = str(mime)[:60] or "unknown"
        return f"an image of type {named} was left out: only PNG, JPEG, GIF and WebP are shown"
    if not isinstance(data, str) or not data:
        return f"a {kind} image without data was left out"
    data = "".join(data.split())
    size = decoded_size(data)
    if size > MAX_IMAGE_BYTES:
        return f"a {kind} image of {size:,} bytes was left out: the limit is {MAX_IMAGE_BYTES:,} bytes"
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return f"a {kind} image was left out: its data is not valid base64"
    if not raw.startswith(_SIGNATURES[kind]) or (kind == "image/webp" and raw[8:12] != b"WEBP"):
        return f"a {kind} image was left out: its bytes are not a {kind} image"
    measured = image_size.checked(raw)
    if isinstance(measured, str):
        return f"a {kind} image was left out: {measured}"
    return ToolImage(kind, data)


def sniff(raw: bytes) -> str | None:
    """The accepted image type `raw` starts as, by its first bytes alone (never by a name or a label)."""
    for kind, signatures in _SIGNATURES.items():
        if raw.startswith(signatures) and (kind != "image/webp" or raw[8:12] == b"WEBP"):
            return kind
    return None


def from_bytes(raw: bytes) -> ToolImage | str:
    """An image of the workspace as a ToolImage, or why it is not one (`accept`'s words)."""
    kind = sniff(raw)
    if kind is None:
        return "its bytes are not a PNG, JPEG, GIF or WebP image"
    if len(raw) > MAX_IMAGE_BYTES:
        return f"a {kind} image of {len(raw):,} bytes is not attached: the limit is {MAX_IMAGE_BYTES:,} bytes"
    return accept(kind, base64.b64encode(raw).decode("ascii"))


def accept_all(candidates: Iterable[tuple[object, object]]) -> tuple[tuple[ToolImage, ...], list[str]]:
    """The images kept of (mime, data) pairs, and a line for each one left out."""
    kept: list[ToolImage] = []
    notes: list[str] = []
    total = 0
    for mime, data in candidates:
        checked = accept(mime, data)
        if isinstance(checked, str):
            notes.append(checked)
        elif len(kept) >= MAX_IMAGES:
            notes.append(f"a {checked.mime} image was left out: at most {MAX_IMAGES} images per result")
        elif total + checked.size > MAX_RESULT_BYTES:
            notes.append(
                f"a {checked.mime} image was left out: the images of one result may not exceed "
                f"{MAX_RESULT_BYTES:,} bytes"
            )
        else:
            kept.append(checked)
            total += checked.size
    return tuple(kept), notes
