"""The image header reader (py/agentlite/image_size.py) and its page twin (web/src/attachments/image-size.js):
the true size of each format, the bounds and their words, malformed headers refused with a reason, any bytes
answered without an exception, and the two readers giving the same answer on one shared corpus (samples, every
prefix of each, seeded corruptions), run under Node."""

from __future__ import annotations

import base64
import random
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite import image_size
from agentlite.image_size import MAX_FRAMES, MAX_SIDE, MAX_STEPS, Refused, Size, checked, measure
from buildsys.common import ROOT
from tests.image_samples import gif, jpeg, png, webp_animated, webp_lossless, webp_lossy
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "image_size_runner.mjs"
SAMPLES: dict[str, tuple[bytes, tuple[str, int, int, int]]] = {
    "png": (png(3, 2), ("image/png", 3, 2, 1)),
    "apng": (png(5, 4, frames=12), ("image/png", 5, 4, 12)),
    "png_huge": (png(40_000, 40_000), ("image/png", 40_000, 40_000, 1)),
    "jpeg": (jpeg(640, 480, app_segments=3), ("image/jpeg", 640, 480, 1)),
    "jpeg_tall": (jpeg(1, 65_535), ("image/jpeg", 1, 65_535, 1)),
    "gif": (gif(7, 9, frames=3), ("image/gif", 7, 9, 3)),
    "gif_wide": (gif(65_535, 2), ("image/gif", 65_535, 2, 1)),
    "webp_lossy": (webp_lossy(300, 200), ("image/webp", 300, 200, 1)),
    "webp_lossless": (webp_lossless(16_384, 3), ("image/webp", 16_384, 3, 1)),
    "webp_animated": (webp_animated(20, 10, frames=4), ("image/webp", 20, 10, 4)),
}
MALFORMED = {
    "png_no_ihdr": b"\x89PNG\r\n\x1a\n" + bytes(40),
    "jpeg_sos_first": b"\xff\xd8\xff\xda\x00\x08" + bytes(20),
    "jpeg_dnl": jpeg(10, 0),
    "jpeg_garbage": b"\xff\xd8\xff\xe0\x00\x04\0\0junk" + bytes(20),
    "gif_unknown_block": gif(2, 2)[:-1] + b"\x99",
    "webp_other_chunk": b"RIFF\x20\0\0\0WEBPXYZW" + bytes(30),
    "webp_vp8_no_key_frame": webp_lossy(5, 5)[:20] + b"\x01" + webp_lossy(5, 5)[21:],
}


def as_dict(answer: Size | Refused) -> dict[str, Any]:
    return {"ok": isinstance(answer, Size), **asdict(answer)}


def test_each_format_reads_its_true_size_and_frames() -> None:
    for name, (raw, (mime, width, height, frames)) in SAMPLES.items():
        assert measure(raw) == Size(mime, width, height, frames), name


def test_the_bounds_and_their_words() -> None:
    assert checked(png(MAX_SIDE, 3)) == Size("image/png", MAX_SIDE, 3)
    assert checked(png(MAX_SIDE + 1, 3)) == (
        "it is 16,385 × 3 pixels: at most 16,384 on a side and 50 megapixels are taken"
    )
    assert (
        checked(png(7_072, 7_072))
        == "it is 7,072 × 7,072 pixels: at most 16,384 on a side and 50 megapixels are taken"
    )
    assert isinstance(checked(jpeg(8_064, 6_048)), Size)  # a 48-megapixel phone photo
    assert checked(gif(2, 2, frames=MAX_FRAMES + 1)) == "it has 1,001 frames: at most 1,000 are taken"
    assert checked(png(2_000, 1_000, frames=501)) == (
        "its 501 frames of 2,000 × 1,000 pixels are more than 1,000,000,000 pixels in all"
    )
    assert checked(png(0, 5)) == "its header says 0 × 5 pixels, an image with no pixels"


def test_malformed_headers_are_refused_with_a_reason() -> None:
    reasons = {name: measure(raw) for name, raw in MALFORMED.items()}
    assert all(isinstance(r, Refused) and not r.ended for r in reasons.values()), reasons
    assert reasons["png_no_ihdr"] == Refused("its PNG header is malformed: IHDR is not its first chunk")
    assert reasons["jpeg_dnl"] == Refused("its JPEG header gives its height later (DNL), which is not taken")
    assert measure(b"<svg/>") == Refused("its bytes are not a PNG, JPEG, GIF or WebP image")


def test_a_prefix_says_it_ended_and_frames_so_far() -> None:
    whole = gif(4, 4, frames=5)
    assert measure(whole[:60]) == Size("image/gif", 4, 4, 2, ended=True)
    assert measure(png(3, 3)[:20]) == Refused("its header is cut short", ended=True)
    assert measure(jpeg(9, 9)[:30]) == Refused("its header is cut short", ended=True)


def test_the_walk_is_bounded_by_its_steps() -> None:
    fill = b"\xff\xd8" + b"\xff" * (MAX_STEPS + 10) + b"\xc0"
    assert measure(fill) == Refused("its JPEG header has more than 200,000 segments before its frame header")
    blocks = gif(1, 1)[:-1] + b"\x21\xfe" + b"\x01x" * (MAX_STEPS + 10) + b"\x00\x3b"
    assert measure(blocks) == Refused("its GIF data has more than 200,000 blocks")


def test_a_frame_wider_than_the_screen_widens_the_canvas() -> None:
    raw = gif(10, 10)
    at = 13 + 6 + 8  # the screen, its colour table, a graphic control extension: the image descriptor
    widened = raw[: at + 1] + (20_000).to_bytes(2, "little") + raw[at + 3 :]  # the frame placed at x = 20,000
    assert measure(widened) == Size("image/gif", 20_010, 10, 1)
    assert isinstance(checked(widened), str)


SIGNATURES = [b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF89a", b"RIFF\0\0\0\0WEBP", b""]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SIGNATURES), st.binary(max_size=200))
def test_any_bytes_get_a_size_or_a_refusal_never_an_exception(head: bytes, tail: bytes) -> None:
    answer = measure(head + tail)
    assert isinstance(answer, (Size, Refused))
    assert isinstance(checked(head + tail), (Size, str))


BUILDERS = {
    "png": lambda w, h, f: (png(w, h, frames=f), f),
    "jpeg": lambda w, h, f: (jpeg(w, h, app_segments=f % 5), 1),
    "gif": lambda w, h, f: (gif(w, h, frames=f), f),
    "webp_lossy": lambda w, h, f: (webp_lossy(w, h), 1),
    "webp_lossless": lambda w, h, f: (webp_lossless(w, h), 1),
    "webp_animated": lambda w, h, f: (webp_animated(w, h, frames=f), f),
}
SIDES = {"png": 100_000, "jpeg": 65_535, "gif": 65_535, "webp_lossy": 16_383, "webp_lossless": 16_384}


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(BUILDERS)), st.integers(1, 100_000), st.integers(1, 100_000), st.integers(1, 40)
)
def test_the_reader_answers_the_true_size_of_any_valid_image(
    kind: str, width: int, height: int, frames: int
) -> None:
    width, height = min(width, SIDES.get(kind, 16_777_216)), min(height, SIDES.get(kind, 16_777_216))
    raw, expected_frames = BUILDERS[kind](width, height, frames)
    found = measure(raw)
    assert isinstance(found, Size) and (found.width, found.height, found.frames) == (
        width,
        height,
        expected_frames,
    )


def test_pillow_images_read_their_true_size() -> None:
    image_module = pytest.importorskip("PIL.Image")
    import io

    for form, mime in (
        ("PNG", "image/png"),
        ("JPEG", "image/jpeg"),
        ("GIF", "image/gif"),
        ("WEBP", "image/webp"),
    ):
        for width, height in ((1, 1), (17, 5), (640, 480)):
            buffer = io.BytesIO()
            image_module.new("RGB", (width, height), (200, 10, 10)).save(buffer, form)
            assert measure(buffer.getvalue()) == Size(mime, width, height), (form, width, height)


def corpus() -> list[bytes]:
    """The shared corpus: every sample and malformed header, each of their prefixes, seeded corruptions."""
    seeds = [raw for raw, _ in SAMPLES.values()] + list(MALFORMED.values())
    found = list(seeds) + [raw[:cut] for raw in seeds for cut in range(min(len(raw), 120))]
    rng = random.Random(42)
    for _ in range(1500):
        raw = bytearray(rng.choice(seeds)[:400])
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.choice((0, 0xFF, rng.randrange(256)))
        found.append(bytes(raw))
    return found


def test_the_page_and_the_agent_read_the_shared_corpus_alike() -> None:
    cases = corpus()
    answers = run_node(RUNNER, [base64.b64encode(raw).decode() for raw in cases])
    assert len(answers) == len(cases)
    for raw, page in zip(cases, answers, strict=True):
        assert page["measured"] == as_dict(measure(raw)), raw[:60]
        agent = checked(raw)
        if isinstance(agent, Size):
            assert page["checked"] == as_dict(agent), raw[:60]
        else:
            assert (page["checked"]["ok"], page["checked"]["reason"]) == (False, agent), raw[:60]


def test_the_bounds_are_the_same_numbers_on_both_sides() -> None:
    source = (ROOT / "web" / "src" / "attachments" / "image-size.js").read_text(encoding="utf-8")
    for name in ("MAX_SIDE", "MAX_PIXELS", "MAX_FRAMES", "MAX_ANIMATION_PIXELS", "MAX_STEPS"):
        value = getattr(image_size, name)
        assert f"export const {name} = {value:_};" in source or f"export const {name} = {value};" in source, (
            name
        )
