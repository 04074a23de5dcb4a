"""The page's filter of a result's images (web/src/attachments/tool-images.js): only PNG, JPEG, GIF and WebP
with base64 data become <img> sources, whatever the worker or a stored chat sends; the alt text names the
tool, the type and the size."""

from __future__ import annotations

import base64

from buildsys.common import ROOT
from tests.image_samples import PNG_48, gif, png, webp_lossy
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "tool_images_runner.mjs"
PNG = base64.b64encode(PNG_48).decode()  # 48 bytes
WEBP = base64.b64encode(webp_lossy(2, 2)).decode()


def test_only_the_four_raster_types_with_base64_data_are_shown() -> None:
    images = [
        {"mime": "image/png", "data": PNG},
        {"mime": "image/svg+xml", "data": PNG},
        {"mime": "image/png", "data": 'x" onerror="alert(1)'},
        {"mime": "text/html", "data": PNG},
        {"mime": "image/webp", "data": WEBP},
        {"mime": "image/gif"},
        "image/png",
        None,
    ]
    [row] = run_node(RUNNER, [images])
    assert row["shown"] == ["image/png", "image/webp"]
    assert row["alts"] == [
        "Image 1 of 2 returned by snap: image/png, 48 bytes",
        "Image 2 of 2 returned by snap: image/webp, 38 bytes",
    ]


def test_pixels_before_bytes_a_header_out_of_bounds_or_of_another_type_is_never_shown() -> None:
    def encoded(raw: bytes) -> str:
        return base64.b64encode(raw).decode()

    images = [
        {"mime": "image/png", "data": encoded(png(40_000, 40_000))},  # 1.6 gigapixels in a few bytes
        {"mime": "image/gif", "data": encoded(gif(2, 2, frames=1_001))},
        {"mime": "image/png", "data": encoded(b"\x89PNG\r\n\x1a\n" + bytes(40))},  # no IHDR
        {"mime": "image/png", "data": encoded(gif(2, 2))},  # a GIF labelled PNG
        {"mime": "image/png", "data": "iVBORw0KGgoA"},  # a header cut short
        {"mime": "image/png", "data": encoded(png(16_384, 2))},
    ]
    [row] = run_node(RUNNER, [images])
    assert row["shown"] == ["image/png"]


def test_nothing_that_is_not_a_list_is_shown() -> None:
    assert run_node(RUNNER, [None, {"mime": "image/png", "data": PNG}, []]) == [
        {"shown": [], "alts": []},
        {"shown": [], "alts": []},
        {"shown": [], "alts": []},
    ]
