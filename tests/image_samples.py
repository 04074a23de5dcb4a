"""Small images built by hand, header and all, so tests need no image library: each is as much of its format
as a header reader (py/agentlite/image_size.py, web/src/attachments/image-size.js) reads, and `png()` of 1 × 1
is a whole, decodable image."""

from __future__ import annotations

import struct
import zlib


def chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data, CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int = 1, height: int = 1, frames: int | None = None) -> bytes:
    """A grey 8-bit PNG, whole and decodable while small; `frames` adds an acTL (an APNG)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    animation = chunk(b"acTL", struct.pack(">II", frames, 0)) if frames is not None else b""
    rows = zlib.compress(bytes(1 + width) * height) if width * height <= 4096 else b"\0"
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + animation + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


# 48 bytes, the header and three bytes of image data: what tests of sizes and alt texts show.
PNG_48 = png(1, 1)[:33] + chunk(b"IDAT", b"x\x9cc")


def jpeg(width: int = 1, height: int = 1, app_segments: int = 1) -> bytes:
    """SOI, some APP0 segments, a quantisation table, then the baseline frame header (SOF0)."""
    app = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"
    table = b"\xff\xdb" + struct.pack(">H", 67) + b"\0" + bytes(range(1, 65))
    frame = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app * app_segments + table + frame + b"\xff\xd9"


def gif(width: int = 1, height: int = 1, frames: int = 1) -> bytes:
    """A GIF89a with a 2-colour global table and `frames` image descriptors of the whole screen."""
    screen = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    control = b"\x21\xf9\x04\x00\x0a\x00\x00\x00"  # a graphic control extension: a delay
    one = control + b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x44\x01\x00"
    return screen + one * frames + b"\x3b"


def _riff(body: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def _webp_chunk(kind: bytes, data: bytes) -> bytes:
    return kind + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def webp_lossy(width: int = 1, height: int = 1) -> bytes:
    """A WebP whose one chunk is VP8 (lossy): a key frame's tag, start code, sides."""
    data = b"\x50\x01\x00\x9d\x01\x2a" + struct.pack("<HH", width, height) + bytes(8)
    return _riff(_webp_chunk(b"VP8 ", data))


def webp_lossless(width: int = 1, height: int = 1) -> bytes:
    """A WebP whose one chunk is VP8L (lossless): signature, then 14-bit sides less one."""
    bits = (width - 1) | (height - 1) << 14
    return _riff(_webp_chunk(b"VP8L", b"\x2f" + struct.pack("<I", bits) + bytes(4)))


def webp_animated(width: int = 1, height: int = 1, frames: int = 2) -> bytes:
    """A VP8X WebP with the animation flag, an ANIM chunk and `frames` ANMF chunks."""
    canvas = b"\x02\0\0\0" + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    frame = bytes(6) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little") + bytes(4)
    body = _webp_chunk(b"VP8X", canvas) + _webp_chunk(b"ANIM", bytes(6))
    return _riff(body + _webp_chunk(b"ANMF", frame + webp_lossless(width, height)[12:]) * frames)
