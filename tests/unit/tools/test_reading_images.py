"""read_file on a workspace image (tools/reading.py): a PNG, JPEG, GIF or WebP, known by its first bytes,
comes back as an image the result carries (sent to a model that takes images); the text says what it is
and its size. Anything else binary stays "its bytes are not shown"."""

from __future__ import annotations

import base64

from agentlite.tools import images
from tests.image_samples import PNG_48 as PNG
from tests.image_samples import png, webp_lossy
from tests.unit.tools.conftest import call, context_with

WEBP = webp_lossy(3, 2)


async def test_a_png_comes_back_as_an_image_with_its_kind_and_size() -> None:
    context = await context_with({"shot.png": PNG})
    result = await call(context, "read_file", path="/shot.png")
    assert result.ok
    assert result.message == "/shot.png: PNG image, 48 bytes (attached for models that take images)."
    assert [image.to_dict() for image in result.images] == [
        {"mime": "image/png", "data": base64.b64encode(PNG).decode()}
    ]


async def test_the_type_comes_from_the_bytes_not_the_name() -> None:
    context = await context_with({"picture.bin": WEBP, "fake.png": b"\x00\x01not an image\xff\xfe"})
    webp = await call(context, "read_file", path="/picture.bin")
    assert webp.images and webp.images[0].mime == "image/webp"
    fake = await call(context, "read_file", path="/fake.png")
    assert not fake.images and "its bytes are not shown" in fake.message


async def test_an_image_over_the_limit_is_named_not_attached() -> None:
    big = PNG + b"\0" * images.MAX_IMAGE_BYTES
    context = await context_with({"big.png": big})
    result = await call(context, "read_file", path="/big.png")
    assert result.ok and not result.images
    assert result.message.startswith("/big.png: PNG image, 4.0 MB;") and "the limit is" in result.message


async def test_an_image_of_absurd_pixel_size_is_named_not_attached() -> None:
    context = await context_with({"huge.png": png(40_000, 40_000)})
    result = await call(context, "read_file", path="/huge.png")
    assert result.ok and not result.images
    assert result.message.endswith(
        "; a image/png image was left out: it is 40,000 × 40,000 pixels: at most 16,384 on a side and "
        "50 megapixels are taken."
    )
