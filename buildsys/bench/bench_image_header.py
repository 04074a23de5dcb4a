"""What a hostile image costs the agent's header reader before it is refused (docs/attachments.md, "Pixels
before bytes"), in CPython (Pyodide in the page runs the same code about 3x slower).

- `image_header_worst`: the slowest of a 4 MB GIF whose one frame is one-byte sub-blocks (the most steps
  per byte any format allows) and a 4 MB JPEG of fill bytes, through `image_size.measure` until its step
  bound refuses it: ms, the median of a few runs (goal ≤ 50 ms, the worker held).
"""

from __future__ import annotations

import statistics
import sys
import time

from buildsys.bench.bench_figure import Figure
from buildsys.common import ROOT

SIZE = 4 * 1024 * 1024  # the most a tool's image may be (tools/images.py MAX_IMAGE_BYTES)
RUNS = 5


def hostile_images() -> list[bytes]:
    """A GIF of one-byte sub-blocks and a JPEG of fill bytes, each `SIZE` bytes."""
    screen = b"GIF89a\x02\x00\x02\x00\x00\x00\x00"
    frame = b"\x2c" + bytes(8) + b"\x00\x02"
    blocks = b"\x01x" * ((SIZE - len(screen) - len(frame) - 2) // 2)
    return [screen + frame + blocks + b"\x00\x3b", b"\xff\xd8" + b"\xff" * (SIZE - 3) + b"\xc0"]


def image_header_worst() -> list[Figure]:
    if str(ROOT / "py") not in sys.path:
        sys.path.insert(0, str(ROOT / "py"))
    from agentlite.image_size import Refused, measure

    worst: list[float] = []
    for _ in range(RUNS):
        times = []
        for raw in hostile_images():
            start = time.perf_counter()
            answer = measure(raw)
            times.append((time.perf_counter() - start) * 1000)
            if not isinstance(answer, Refused):
                raise AssertionError("a hostile image was measured instead of refused")
        worst.append(max(times))
    return [Figure("image_header_worst", statistics.median(worst), "ms", runs=RUNS, goal="≤ 50 ms")]
