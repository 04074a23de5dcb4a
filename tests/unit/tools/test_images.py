"""Images a tool returns (tools/images.py): only PNG, JPEG, GIF and WebP whose bytes match the type,
never SVG, each and all of a result's images capped; a refused image is a line of text."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st

from agentlite.tools.images import (
    MAX_IMAGE_BYTES,
    MAX_IMAGES,
    MAX_RESULT_BYTES,
    ToolImage,
    accept,
    accept_all,
)
from agentlite.tools.result import ToolResult
from tests.image_samples import PNG_48, gif, jpeg, png, webp_lossy

PNG = base64.b64encode(PNG_48).decode()
SVG = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').decode()


def sized(kind: bytes, size: int) -> str:
    return base64.b64encode(kind + b"\0" * (size - len(kind))).decode()


def test_accepts_the_four_raster_types() -> None:
    samples = {"image/png": PNG_48, "image/jpeg": jpeg(), "image/gif": gif(), "image/webp": webp_lossy()}
    for mime, head in samples.items():
        image = accept(mime, sized(head, 256))
        assert isinstance(image, ToolImage) and image.mime == mime and image.size == 256


def test_svg_is_refused_by_type_and_by_its_bytes() -> None:
    assert accept("image/svg+xml", SVG) == (
        "an image of type image/svg+xml was left out: only PNG, JPEG, GIF and WebP are shown"
    )
    assert accept("image/png", SVG) == "a image/png image was left out: its bytes are not a image/png image"


def test_too_big_bad_base64_and_missing_data_are_refused() -> None:
    too_big = accept("image/png", sized(PNG_48, MAX_IMAGE_BYTES + 1))
    assert isinstance(too_big, str) and "limit is 4,194,304 bytes" in too_big
    assert isinstance(accept("image/png", sized(PNG_48, MAX_IMAGE_BYTES)), ToolImage)
    assert accept("image/png", "!!!!") == "a image/png image was left out: its data is not valid base64"
    assert accept("image/png", None) == "a image/png image without data was left out"
    assert accept("image/webp", sized(b"RIFF\0\0\0\0WAVE", 32)) == (
        "a image/webp image was left out: its bytes are not a image/webp image"
    )


def test_a_result_keeps_a_few_images_within_its_total() -> None:
    kept, notes = accept_all([("image/png", PNG)] * (MAX_IMAGES + 2))
    assert len(kept) == MAX_IMAGES
    assert notes == [f"a image/png image was left out: at most {MAX_IMAGES} images per result"] * 2
    big = sized(PNG_48, MAX_IMAGE_BYTES)
    kept, notes = accept_all([("image/png", big)] * 3)
    assert len(kept) == MAX_RESULT_BYTES // MAX_IMAGE_BYTES and len(notes) == 1
    assert "may not exceed 8,388,608 bytes" in notes[0]


def test_the_result_shows_its_images_once_and_the_model_text_stays_text() -> None:
    image = ToolImage("image/png", PNG)
    result = ToolResult.success("[image: image/png, 48 bytes]").with_images((image,))
    assert result.to_dict()["images"] == [{"mime": "image/png", "data": PNG}]
    assert "images" not in ToolResult.success("text").to_dict()
    assert result.for_model() == "[image: image/png, 48 bytes]"
    assert image.data_url() == f"data:image/png;base64,{PNG}"


def test_a_stored_image_is_checked_again() -> None:
    assert ToolImage.from_dict({"mime": "image/png", "data": PNG}) == ToolImage("image/png", PNG)
    assert ToolImage.from_dict({"mime": "image/svg+xml", "data": SVG}) is None
    assert ToolImage.from_dict("image/png") is None


@given(st.text(max_size=40), st.binary(max_size=64))
def test_accept_never_raises_and_keeps_only_allowed_types(mime: str, raw: bytes) -> None:
    checked = accept(mime, base64.b64encode(raw).decode())
    if isinstance(checked, ToolImage):
        assert checked.mime in ("image/png", "image/jpeg", "image/gif", "image/webp")
        assert base64.b64decode(checked.data) == raw


def test_pixels_before_bytes_a_tiny_file_of_absurd_size_is_refused_with_its_size() -> None:
    assert accept("image/png", base64.b64encode(png(40_000, 40_000)).decode()) == (
        "a image/png image was left out: it is 40,000 × 40,000 pixels: at most 16,384 on a side and "
        "50 megapixels are taken"
    )
    assert accept("image/png", base64.b64encode(png(4, 4, frames=5000)).decode()) == (
        "a image/png image was left out: it has 5,000 frames: at most 1,000 are taken"
    )
    assert accept("image/png", sized(b"\x89PNG\r\n\x1a\n", 64)) == (
        "a image/png image was left out: its PNG header is malformed: IHDR is not its first chunk"
    )
    kept, notes = accept_all([("image/png", PNG), ("image/gif", base64.b64encode(gif(20_000, 1)).decode())])
    assert len(kept) == 1 and notes == [
        "a image/gif image was left out: it is 20,000 × 1 pixels: at most 16,384 on a side and "
        "50 megapixels are taken"
    ]
