"""The local engine's SIMD 4-bit kernels (buildsys/local_kernels.py): the wasm reader and writer, the checks
that keep a body movable, and the kernels' sums against a reference on random blocks."""

from __future__ import annotations

import base64
import random
import struct
from pathlib import Path

import pytest

from buildsys import local_kernels, wasm_binary
from buildsys.common import NODE_MODULES, BuildError
from tests.unit.node_json import run_node

pytestmark = pytest.mark.skipif(not local_kernels.zig_available(), reason=f"needs {local_kernels.ZIG_PIN}")

RUNNER = Path(__file__).with_name("quant_dot_runner.mjs")
EXPORTS = [f"-Wl,--export={name}" for name in local_kernels.KERNELS]
LINK = ["-Wl,--no-entry", *EXPORTS]
COMPAT_ENGINE = NODE_MODULES / "@wllama" / "wllama-compat" / "wasm" / "wllama.wasm"
DEFAULT_ENGINE = NODE_MODULES / "@wllama" / "wllama" / "esm" / "wasm" / "wllama.wasm"


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


def test_the_kernels_sum_like_ggml_on_random_blocks() -> None:
    rng = random.Random(7)
    cases, expected = [], []
    for n_blocks in (1, 2, 3, 4, 5, 7, 18, 48):  # the four-block steps, and every length of what is left
        for kind, fn in KINDS.items():
            x, xb = weight_blocks(rng, n_blocks, kind)
            y, yb = activation_blocks(rng, n_blocks, with_sum=kind == "q4_1")
            encoded = {"x": base64.b64encode(x).decode(), "y": base64.b64encode(y).decode()}
            cases.append({"fn": fn, "n": 32 * n_blocks, **encoded})
            expected.append(reference(xb, yb, kind))
    linked = local_kernels.compile_object("wasm32", link=LINK)
    [out] = run_node(RUNNER, {"wasm": base64.b64encode(linked).decode(), "cases": cases})
    for got, want in zip(out["results"], expected, strict=True):
        assert got == pytest.approx(want, rel=1e-4, abs=1e-6)


def test_linking_leaves_the_bodies_as_compiled() -> None:
    """The run above is of a linked module; what the build moves is the object's bodies: the same bytes."""
    linked = wasm_binary.parse(local_kernels.compile_object("wasm32", link=LINK))
    kernels = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32"))
    for name in local_kernels.KERNELS:
        assert linked.body_of(linked.function_index(name)) == kernels.body_of(kernels.function_index(name))


def test_a_body_that_calls_out_or_uses_the_stack_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "quant_dot.c"
    source.write_text(
        "void helper(float *);\n"
        "void ggml_vec_dot_q4_0_q8_0(int n, float *s) { float t[64]; t[n & 63] = 1; helper(t); *s = t[1]; }\n"
        "void ggml_vec_dot_q4_1_q8_1(int n, float *s) { *s = n; }\n"
        "void ggml_vec_dot_q8_0_q8_0(int n, float *s) { *s = n; }\n"
    )
    with pytest.raises((BuildError, wasm_binary.WasmError)):
        local_kernels.leaf_kernels(local_kernels.compile_object("wasm32", source=source))


@pytest.mark.skipif(not COMPAT_ENGINE.exists(), reason="needs web/node_modules (python build.py)")
def test_the_splice_replaces_two_bodies_and_nothing_else() -> None:
    engine_bytes = COMPAT_ENGINE.read_bytes()
    engine = wasm_binary.parse(engine_bytes)
    assert wasm_binary.with_bodies(engine, {}) == engine_bytes  # written back byte for byte
    assert local_kernels.target_of(engine) == "wasm32"
    kernels = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32"))
    spliced = wasm_binary.parse(local_kernels.splice(engine_bytes, kernels))
    changed = {i for i, (a, b) in enumerate(zip(engine.bodies, spliced.bodies, strict=True)) if a != b}
    assert changed == {engine.defined(engine.function_index(name)) for name in local_kernels.KERNELS}
    assert spliced.sections[:3] == engine.sections[:3] and spliced.names == engine.names


@pytest.mark.skipif(not DEFAULT_ENGINE.exists(), reason="needs web/node_modules (python build.py)")
def test_a_kernel_of_the_wrong_pointer_width_is_refused() -> None:
    engine_bytes = DEFAULT_ENGINE.read_bytes()
    assert local_kernels.target_of(wasm_binary.parse(engine_bytes)) == "wasm64"
    kernels32 = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32"))
    with pytest.raises(BuildError, match="type"):
        local_kernels.splice(engine_bytes, kernels32)


def test_a_module_cut_short_is_refused() -> None:
    data = local_kernels.compile_object("wasm32")
    with pytest.raises(wasm_binary.WasmError):
        wasm_binary.parse(data[: len(data) // 2])
    with pytest.raises(wasm_binary.WasmError):
        wasm_binary.parse(b"not wasm")
