"""MCP image content blocks (mcp/answer.py, docs/mcp.md "Image results"): an accepted image becomes
one of the result's images and is still named in its text; SVG, a mislabelled or an oversized image
is named with the reason it was left out."""

from __future__ import annotations

import base64

from agentlite.mcp.answer import tool_result
from agentlite.tools.images import MAX_IMAGE_BYTES, ToolImage
from agentlite.tools.result import ToolErrorType
from tests.image_samples import PNG_48, png

PNG = base64.b64encode(PNG_48).decode()
SVG = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>").decode()


def test_an_image_block_becomes_a_result_image_and_is_named() -> None:
    result = tool_result(
        {
            "content": [
                {"type": "text", "text": "The chart:"},
                {"type": "image", "mimeType": "image/png", "data": PNG},
            ]
        }
    )
    assert result.ok and result.images == (ToolImage("image/png", PNG),)
    assert result.message == "The chart:\n[image: image/png, 48 bytes]"


def test_svg_and_a_mislabelled_image_are_refused_with_the_reason() -> None:
    result = tool_result(
        {
            "content": [
                {"type": "image", "mimeType": "image/svg+xml", "data": SVG},
                {"type": "image", "mimeType": "image/png", "data": SVG},
            ]
        }
    )
    assert result.images == ()
    assert (
        "[an image of type image/svg+xml was left out: only PNG, JPEG, GIF and WebP are shown]"
        in result.message
    )
    assert "[a image/png image was left out: its bytes are not a image/png image]" in result.message


def test_an_oversized_image_is_refused() -> None:
    big = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_IMAGE_BYTES).decode()
    result = tool_result({"content": [{"type": "image", "mimeType": "image/png", "data": big}]})
    assert result.images == () and "the limit is 4,194,304 bytes" in result.message


def test_an_error_keeps_its_images_and_audio_is_only_named() -> None:
    result = tool_result(
        {
            "isError": True,
            "content": [
                {"type": "image", "mimeType": "image/png", "data": PNG},
                {"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
            ],
        }
    )
    assert result.error_type is ToolErrorType.REMOTE and len(result.images) == 1
    assert "[audio: audio/wav, 6 bytes, not shown]" in result.message


def test_an_image_block_of_absurd_pixel_size_is_named_not_kept() -> None:
    """Pixels before bytes: a tiny PNG that claims 40,000 × 40,000 pixels is refused by its header."""
    huge = base64.b64encode(png(40_000, 40_000)).decode()
    result = tool_result({"content": [{"type": "image", "mimeType": "image/png", "data": huge}]})
    assert result.ok and result.images == ()
    assert result.message.endswith(
        "[a image/png image was left out: it is 40,000 × 40,000 pixels: at most 16,384 on a side and "
        "50 megapixels are taken]"
    )
