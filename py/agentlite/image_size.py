"""An image's pixel size and frame count read from its header: pixels before bytes (docs/attachments.md).

Every image that reaches the page, a chat or a model is measured here first (`tools.images.accept`), so
a small file that claims 40,000 × 40,000 pixels is refused before anything decodes it. The reader is
pure, never raises, and its work is bounded by `MAX_STEPS` whatever the bytes: PNG (IHDR, and acTL for
an APNG's frames), JPEG (its segments walked to the first SOFn), GIF (the logical screen and every
image descriptor, whose frames may widen the canvas as browsers do) and WebP (VP8, VP8L, VP8X and its
ANMF frames). web/src/attachments/image-size.js is the same reader for the page; a shared corpus keeps the two
answering alike, down to the words of each refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SIDE = 16_384  # px on either side: the largest canvas side browsers draw
MAX_PIXELS = 50_000_000  # one frame: a 48-megapixel phone photo passes, about 200 MB decoded
MAX_FRAMES = 1_000  # frames of an animation
MAX_ANIMATION_PIXELS = 1_000_000_000  # frames × canvas pixels of an animation
MAX_STEPS = 200_000  # chunks, segments and sub-blocks walked for one image

CUT = "its header is cut short"


@dataclass(frozen=True)
class Size:
    """What the header says: type, canvas in pixels, frames. `ended`: the bytes ended before the format's
    natural end (a prefix of the file, or a file cut short), so frames may be more."""

    mime: str
    width: int
    height: int
    frames: int = 1
    ended: bool = False


@dataclass(frozen=True)
class Refused:
    """Why the header cannot be measured; `ended` when more bytes might have answered."""

    reason: str
    ended: bool = False


def measure(raw: bytes) -> Size | Refused:
    """The size `raw` declares, or why it has none; never raises, whatever the bytes."""
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(raw)
    if raw.startswith(b"\xff\xd8\xff"):
        return _jpeg(raw)
    if raw.startswith((b"GIF87a", b"GIF89a")):
        return _gif(raw)
    if raw.startswith(b"RIFF") and raw[8:12] == b"WEBP":
        return _webp(raw)
    return Refused("its bytes are not a PNG, JPEG, GIF or WebP image")


def over_bounds(size: Size) -> str | None:
    """Why an image of this size is not taken, or None when it is within every bound."""
    width, height, frames = size.width, size.height, size.frames
    if width < 1 or height < 1:
        return f"its header says {width:,} × {height:,} pixels, an image with no pixels"
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        return (
            f"it is {width:,} × {height:,} pixels: at most {MAX_SIDE:,} on a side and "
            f"{MAX_PIXELS // 1_000_000} megapixels are taken"
        )
    if frames > MAX_FRAMES:
        return f"it has {frames:,} frames: at most {MAX_FRAMES:,} are taken"
    if frames * width * height > MAX_ANIMATION_PIXELS:
        return (
            f"its {frames:,} frames of {width:,} × {height:,} pixels are more than "
            f"{MAX_ANIMATION_PIXELS:,} pixels in all"
        )
    return None


def checked(raw: bytes) -> Size | str:
    """The size when it is measured and within bounds, else the reason (one clause, for a sentence)."""
    size = measure(raw)
    if isinstance(size, Refused):
        return size.reason
    return over_bounds(size) or size


def _u16be(raw: bytes, at: int) -> int:
    return int.from_bytes(raw[at : at + 2], "big")


def _u16le(raw: bytes, at: int) -> int:
    return int.from_bytes(raw[at : at + 2], "little")


def _u24le(raw: bytes, at: int) -> int:
    return int.from_bytes(raw[at : at + 3], "little")


def _u32be(raw: bytes, at: int) -> int:
    return int.from_bytes(raw[at : at + 4], "big")


def _png(raw: bytes) -> Size | Refused:
    if len(raw) < 33:
        return Refused(CUT, ended=True)
    if _u32be(raw, 8) != 13 or raw[12:16] != b"IHDR":
        return Refused("its PNG header is malformed: IHDR is not its first chunk")
    width, height = _u32be(raw, 16), _u32be(raw, 20)
    if width > 0x7FFFFFFF or height > 0x7FFFFFFF:
        return Refused("its PNG header is malformed: a side is over 2^31 - 1")
    frames, at = 1, 33
    for _ in range(MAX_STEPS):
        if at + 8 > len(raw):
            return Size("image/png", width, height, frames, ended=True)
        length, kind = _u32be(raw, at), raw[at + 4 : at + 8]
        if length > 0x7FFFFFFF:
            return Refused("its PNG header is malformed: a chunk length is over 2^31 - 1")
        if kind == b"IDAT":
            return Size("image/png", width, height, frames)
        if kind == b"acTL":
            if length != 8 or at + 12 > len(raw):
                return Refused("its PNG header is malformed: acTL is not 8 bytes", ended=at + 12 > len(raw))
            frames = _u32be(raw, at + 8)
            if frames == 0:
                return Refused("its PNG header is malformed: acTL counts no frames")
        at += 12 + length
    return Refused(f"its PNG header has more than {MAX_STEPS:,} chunks before its image data")


# SOF0 to SOF15 are frame headers, but for C4 (DHT), C8 (JPG) and CC (DAC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_STANDALONE = frozenset(range(0xD0, 0xD8)) | {0x01}


def _jpeg(raw: bytes) -> Size | Refused:
    at = 2
    for _ in range(MAX_STEPS):
        if at + 2 > len(raw):
            return Refused(CUT, ended=True)
        if raw[at] != 0xFF:
            return Refused("its JPEG header is malformed: a segment does not start with a marker")
        marker = raw[at + 1]
        if marker == 0xFF:  # a fill byte before the marker
            at += 1
            continue
        if marker in _STANDALONE:
            at += 2
            continue
        if marker in (0xD8, 0xD9, 0xDA):
            return Refused("its JPEG header is malformed: no frame header before its image data")
        if at + 4 > len(raw):
            return Refused(CUT, ended=True)
        length = _u16be(raw, at + 2)
        if length < 2:
            return Refused("its JPEG header is malformed: a segment is shorter than its length field")
        if marker in _SOF:
            return _jpeg_frame(raw, at, length)
        at += 2 + length
    return Refused(f"its JPEG header has more than {MAX_STEPS:,} segments before its frame header")


def _jpeg_frame(raw: bytes, at: int, length: int) -> Size | Refused:
    if length < 8:
        return Refused("its JPEG header is malformed: the frame header is too short")
    if at + 9 > len(raw):
        return Refused(CUT, ended=True)
    height, width = _u16be(raw, at + 5), _u16be(raw, at + 7)
    if height == 0:
        return Refused("its JPEG header gives its height later (DNL), which is not taken")
    return Size("image/jpeg", width, height)


def _gif(raw: bytes) -> Size | Refused:
    if len(raw) < 13:
        return Refused(CUT, ended=True)
    width, height, packed = _u16le(raw, 6), _u16le(raw, 8), raw[10]
    at, frames, steps = 13 + _table(packed), 0, 0
    while at < len(raw):
        block, steps = raw[at], steps + 1
        if block == 0x3B:  # the trailer
            return _gif_size(width, height, frames, ended=False)
        if block == 0x21:  # an extension: its label, then sub-blocks
            at, steps = _sub_blocks(raw, at + 2, steps)
        elif block == 0x2C:  # an image descriptor: a frame
            if at + 10 > len(raw):
                break
            right, bottom = (
                _u16le(raw, at + 1) + _u16le(raw, at + 5),
                _u16le(raw, at + 3) + _u16le(raw, at + 7),
            )
            width, height, frames = max(width, right), max(height, bottom), frames + 1
            at, steps = _sub_blocks(raw, at + 11 + _table(raw[at + 9]), steps)
        else:
            return Refused("its GIF data is malformed: an unknown block")
        if steps > MAX_STEPS:
            return Refused(f"its GIF data has more than {MAX_STEPS:,} blocks")
    return _gif_size(width, height, frames, ended=True)


def _table(packed: int) -> int:
    """The bytes a colour table takes, by a GIF's packed field."""
    return 3 << ((packed & 7) + 1) if packed & 0x80 else 0


def _gif_size(width: int, height: int, frames: int, ended: bool) -> Size | Refused:
    if frames == 0:
        return Refused(CUT if ended else "its GIF data has no image", ended=ended)
    return Size("image/gif", width, height, frames, ended=ended)


def _sub_blocks(raw: bytes, at: int, steps: int) -> tuple[int, int]:
    """Where the sub-blocks starting at `at` end (past the data when they run off it), and the steps
    counted so far."""
    end = len(raw)
    while at < end and steps <= MAX_STEPS:
        size = raw[at]
        if size == 0:
            break
        at += 1 + size
        steps += 1
    return at + 1, steps


def _webp(raw: bytes) -> Size | Refused:
    if len(raw) < 30:
        return Refused(CUT, ended=True)
    kind = raw[12:16]
    if kind == b"VP8 ":
        if raw[20] & 1 or raw[23:26] != b"\x9d\x01\x2a":
            return Refused("its WebP header is malformed: VP8 data without a key frame")
        return Size("image/webp", _u16le(raw, 26) & 0x3FFF, _u16le(raw, 28) & 0x3FFF)
    if kind == b"VP8L":
        if raw[20] != 0x2F:
            return Refused("its WebP header is malformed: VP8L data without its signature")
        bits = _u32le(raw, 21)
        return Size("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if kind == b"VP8X":
        width, height = _u24le(raw, 24) + 1, _u24le(raw, 27) + 1
        return _webp_frames(raw, width, height) if raw[20] & 0x02 else Size("image/webp", width, height)
    return Refused("its WebP header is malformed: its first chunk is not VP8, VP8L or VP8X")


def _webp_frames(raw: bytes, width: int, height: int) -> Size | Refused:
    """An animated WebP: its ANMF chunks counted, walking chunk by chunk to the end RIFF declares."""
    declared = 8 + _u32le(raw, 4)
    end, ended = min(len(raw), declared), len(raw) < declared
    frames, at = 0, 12
    for _ in range(MAX_STEPS):
        if at + 8 > end:
            if frames == 0:
                return Refused(CUT if ended else "its WebP animation has no frames", ended=ended)
            return Size("image/webp", width, height, frames, ended=ended)
        frames += raw[at : at + 4] == b"ANMF"
        length = _u32le(raw, at + 4)
        at += 8 + length + (length & 1)
    return Refused(f"its WebP data has more than {MAX_STEPS:,} chunks")


def _u32le(raw: bytes, at: int) -> int:
    return int.from_bytes(raw[at : at + 4], "little")
