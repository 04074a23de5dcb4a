"""The composer's attachment rules (web/src/attachments/image-rules.js), under Node: an image's type by
its first bytes (the agent's rules, tools/images.py), the size an image is sent at, the smaller tries
when it is still too large, and the per-message caps (the agent's, user_attachments.py)."""

from __future__ import annotations

import base64
from typing import Any

from agentlite import user_attachments
from buildsys.common import ROOT
from tests.image_samples import gif, jpeg, png
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "attach_rules_runner.mjs"


def node(*cases: dict[str, Any]) -> list[Any]:
    return run_node(RUNNER, list(cases))


def test_the_type_comes_from_the_first_bytes_as_the_agent_reads_them() -> None:
    samples = {
        "png": (list(b"\x89PNG\r\n\x1a\n\0\0"), "image/png", "image"),
        "jpeg": (list(b"\xff\xd8\xff\xe0\0\0"), "image/jpeg", "image"),
        "gif": (list(b"GIF89a\0\0"), "image/gif", "image"),
        "webp": (list(b"RIFF\0\0\0\0WEBPVP8 "), "image/webp", "image"),
        "riff_wav": (list(b"RIFF\0\0\0\0WAVEfmt "), None, None),
        "svg": (list(b"<svg xmlns="), None, None),
        "pdf": (list(b"%PDF-1.7\n"), None, "pdf"),
    }
    answers = node(*({"op": "sniff", "bytes": bytes_} for bytes_, _, _ in samples.values()))
    assert [(a["image"], a["kind"]) for a in answers] == [(m, k) for _, m, k in samples.values()]


def test_a_twelve_megapixel_photo_is_sent_at_2048_on_its_longest_side() -> None:
    assert node(
        {"op": "fit", "width": 4000, "height": 3000},
        {"op": "fit", "width": 3000, "height": 4000},
        {"op": "fit", "width": 800, "height": 600},
        {"op": "fit", "width": 100000, "height": 1},
    ) == [
        {"width": 2048, "height": 1536, "scaled": True},
        {"width": 1536, "height": 2048, "scaled": True},
        {"width": 800, "height": 600, "scaled": False},
        {"width": 2048, "height": 1, "scaled": True},
    ]


def test_smaller_tries_lower_the_quality_then_the_side_then_stop() -> None:
    tries = node(
        {"op": "smaller", "attempt": {"width": 2048, "height": 1536, "quality": 0.85}},
        {"op": "smaller", "attempt": {"width": 2048, "height": 1536, "quality": 0.55}},
        {"op": "smaller", "attempt": {"width": 200, "height": 100, "quality": 0.55}},
    )
    assert tries == [
        {"width": 2048, "height": 1536, "quality": 0.7},
        {"width": 1536, "height": 1152, "quality": 0.55},
        None,
    ]


def test_the_per_message_caps_match_the_agents_and_explain_themselves() -> None:
    image = {"kind": "image", "name": "x.png", "sentBytes": 1000}
    limits, full, heavy, fine = node(
        {"op": "limits"},
        {"op": "refusal", "current": [image] * 8, "next": image},
        {
            "op": "refusal",
            "current": [dict(image, sentBytes=20 * 1024 * 1024)],
            "next": {**image, "kind": "pdf"},
        },
        {"op": "refusal", "current": [image] * 7, "next": image},
    )
    assert limits == {
        "images": user_attachments.MAX_IMAGES,
        "message": user_attachments.MAX_MESSAGE_BYTES,
        "side": 2048,
    }
    assert full == "x.png was not attached: a message takes at most 8 images."
    assert heavy == "x.png was not attached: a message takes at most 20 MB of attachments."
    assert fine is None


def test_base64_of_a_large_buffer_and_clean_names() -> None:
    data = bytes(range(256)) * 300
    encoded, name, empty = node(
        {"op": "base64", "bytes": list(data)},
        {"op": "name", "name": "a\u0000b\u0085c\n.png"},
        {"op": "name", "name": ""},
    )
    assert base64.b64decode(encoded) == data
    assert (name, empty) == ("abc.png", "attachment")


def test_an_attachment_is_measured_by_its_header_before_it_is_decoded() -> None:
    """image-prep.js: the first megabyte answers for a PNG or JPEG; a GIF's frames past it are counted in
    the whole file (walked, not decoded), so a long animation cannot hide behind its first frames."""

    def case(raw: bytes) -> dict[str, Any]:
        return {"op": "measure", "data": base64.b64encode(raw).decode()}

    comment = b"\x21\xfe" + b"\xff" + b"x" * 255 + b"\x00"  # a comment extension: 258 bytes, no frame
    animation = gif(2, 2, frames=1_001)
    padded = animation[:19] + comment * 4_100 + animation[19:]  # the frames start past the first 1 MB
    huge, photo, long, cut = node(
        case(png(40_000, 40_000)), case(jpeg(4_000, 3_000)), case(padded), case(png()[:20])
    )
    assert huge == {
        "ok": False,
        "reason": "it is 40,000 × 40,000 pixels: at most 16,384 on a side and 50 megapixels are taken",
        "ended": False,
    }
    assert photo == {
        "ok": True,
        "mime": "image/jpeg",
        "width": 4000,
        "height": 3000,
        "frames": 1,
        "ended": False,
    }
    assert long == {"ok": False, "reason": "it has 1,001 frames: at most 1,000 are taken", "ended": False}
    assert cut == {"ok": False, "reason": "its header is cut short", "ended": True}
