"""Random Q4_0, Q4_1 and Q8_0 blocks with their q8 activations, and ggml's definition of their dot products:
the reference the build's wasm kernels are held to (buildsys/engine/kernels/quant_dot.c), under Node and in
Chromium."""

from __future__ import annotations

import base64
import random
import struct
from typing import Any

from buildsys.engine import local_kernels

# Linker flags for a module that exports the kernels, so that a test can call them.
LINK = ["-Wl,--no-entry", *(f"-Wl,--export={name}" for name in local_kernels.KERNELS)]


def half(value: float) -> bytes:
    return struct.pack("<e", value)


def rounded(value: float) -> float:
    """`value` as the nearest half, as the block stores it."""
    return float(struct.unpack("<e", half(value))[0])


Block = tuple[float, float, list[int]]  # scale, offset or sum, values


def random_scale(rng: random.Random, low: float, high: float) -> float:
    """Mostly ordinary scales; now and then zero or a subnormal half (below 6.1e-5), which must stay exact."""
    pick = rng.random()
    if pick < 0.05:
        return 0.0
    if pick < 0.15:
        return rounded(rng.uniform(-6e-5, 6e-5))
    return rounded(rng.uniform(low, high))


def weight_blocks(rng: random.Random, count: int, kind: str) -> tuple[bytes, list[Block]]:
    data, blocks = bytearray(), []
    for _ in range(count):
        d, m = random_scale(rng, -0.1, 0.1), random_scale(rng, -1, 1)
        if kind == "q8_0":
            qs = [rng.randrange(-128, 128) for _ in range(32)]
            data += half(d) + struct.pack("<32b", *qs)
        else:
            qs = [rng.randrange(16) for _ in range(32)]
            packed = bytes(qs[j] | qs[j + 16] << 4 for j in range(16))
            data += half(d) + (half(m) if kind == "q4_1" else b"") + packed
        blocks.append((d, m, qs))
    return bytes(data), blocks


def activation_blocks(rng: random.Random, count: int, with_sum: bool) -> tuple[bytes, list[Block]]:
    data, blocks = bytearray(), []
    for _ in range(count):
        d = random_scale(rng, 0.001, 0.05)
        qs = [rng.randrange(-128, 128) for _ in range(32)]
        s = rounded(d * sum(qs))
        data += half(d) + (half(s) if with_sum else b"") + struct.pack("<32b", *qs)
        blocks.append((d, s, qs))
    return bytes(data), blocks


def reference(x: list[Block], y: list[Block], kind: str) -> float:
    """ggml's definitions: q4_0 weights are d * (q - 8), q4_1's d * q + m (with s = d * sum(q) in q8_1),
    q8_0's d * q."""
    total = 0.0
    for (dx, m, qx), (dy, s, qy) in zip(x, y, strict=True):
        offset = 8 if kind == "q4_0" else 0
        total += dx * dy * sum((a - offset) * b for a, b in zip(qx, qy, strict=True))
        total += m * s if kind == "q4_1" else 0.0
    return total


KINDS = {"q4_0": local_kernels.KERNELS[0], "q4_1": local_kernels.KERNELS[1], "q8_0": local_kernels.KERNELS[2]}


def cases(seed: int) -> tuple[list[dict[str, Any]], list[float]]:
    """Calls of each kernel on 1-48 blocks (the four-block steps and every tail), and the sums expected."""
    rng = random.Random(seed)
    calls, expected = [], []
    for n_blocks in (1, 2, 3, 4, 5, 7, 18, 48):
        for kind, fn in KINDS.items():
            x, xb = weight_blocks(rng, n_blocks, kind)
            y, yb = activation_blocks(rng, n_blocks, with_sum=kind == "q4_1")
            encoded = {"x": base64.b64encode(x).decode(), "y": base64.b64encode(y).decode()}
            calls.append({"fn": fn, "n": 32 * n_blocks, **encoded})
            expected.append(reference(xb, yb, kind))
    return calls, expected
