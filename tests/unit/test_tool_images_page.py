"""The page's filter of a result's images (web/src/tool-images.js): only PNG, JPEG, GIF and WebP with
base64 data become <img> sources, whatever the worker or a stored chat sends; the alt text names the
tool, the type and the size."""

from __future__ import annotations

from buildsys.common import ROOT
from tests.unit.node_json import run_node

RUNNER = ROOT / "tests" / "unit" / "tool_images_runner.mjs"
PNG = "iVBORw0KGgoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"  # 48 bytes


def test_only_the_four_raster_types_with_base64_data_are_shown() -> None:
    images = [
        {"mime": "image/png", "data": PNG},
        {"mime": "image/svg+xml", "data": PNG},
        {"mime": "image/png", "data": 'x" onerror="alert(1)'},
        {"mime": "text/html", "data": PNG},
        {"mime": "image/webp", "data": "UklGRg=="},
        {"mime": "image/gif"},
        "image/png",
        None,
    ]
    [row] = run_node(RUNNER, [images])
    assert row["shown"] == ["image/png", "image/webp"]
    assert row["alts"] == [
        "Image 1 of 2 returned by snap: image/png, 48 bytes",
        "Image 2 of 2 returned by snap: image/webp, 4 bytes",
    ]


def test_nothing_that_is_not_a_list_is_shown() -> None:
    assert run_node(RUNNER, [None, {"mime": "image/png", "data": PNG}, []]) == [
        {"shown": [], "alts": []},
        {"shown": [], "alts": []},
        {"shown": [], "alts": []},
    ]
