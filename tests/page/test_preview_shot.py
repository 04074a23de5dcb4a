"""The page's check of what the preview frame answers for a screenshot (web/src/preview/page/shot.js): the
frame runs the page's code, so only a PNG within the limits becomes the picture, its size read from the
PNG itself; anything else, and the frame's own error, becomes a line saying why."""

from __future__ import annotations

import base64

from buildsys.common import ROOT
from tests.node_json import run_node
from tests.unit.tools.test_page_preview import png

RUNNER = ROOT / "tests" / "page" / "preview_shot_runner.mjs"
# Sides at bytes 16 and 20 as an IHDR has them, but the first chunk is not an IHDR: the one header reader
# (image-size.js) refuses what a reader of two fixed offsets took.
NOT_IHDR = base64.b64encode(b"\x89PNG\r\n\x1a\n\0\0\0\x0dtEXt\0\0\0\x05\0\0\0\x02" + bytes(9)).decode()


def test_a_png_becomes_the_picture_with_the_size_its_header_gives() -> None:
    data = png(5, 2)
    [row] = run_node(RUNNER, [{"result": {"png": data, "width": 999, "height": 1}}])
    assert row == {"screenshot": {"mime": "image/png", "data": data, "width": 5, "height": 2}}


def test_what_is_not_a_png_within_the_limits_is_refused_with_a_reason() -> None:
    svg = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg'/>").decode()
    answers = [
        {"result": {"png": svg}},
        {"result": {"png": "not bytes at all"}},
        {"result": {}},
        None,
        {"result": {"png": png(1281, 1)}},
        {"result": {"png": png(1, 2001)}},
        {"result": {"png": NOT_IHDR}},
        {"error": "the page could not be drawn (error event)"},
    ]
    rows = run_node(RUNNER, answers)
    assert [row.get("screenshot_error") for row in rows] == [
        "the preview gave something that is not a PNG picture",
        "the preview gave something that is not a PNG picture",
        "the preview gave something that is not a PNG picture",
        "the preview gave something that is not a PNG picture",
        "the preview gave a picture of an impossible size",
        "the preview gave a picture of an impossible size",
        "the preview gave a picture of an impossible size",
        "the page could not be drawn (error event)",
    ]


def test_a_picture_over_the_byte_limit_is_refused() -> None:
    big = base64.b64encode(base64.b64decode(png(1, 1)) + b"\0" * (4 * 1024 * 1024)).decode()
    [row] = run_node(RUNNER, [{"result": {"png": big}}])
    assert row == {
        "screenshot_error": f"the picture has {4 * 1024 * 1024 + 69} bytes; the limit is {4 * 1024 * 1024}"
    }
