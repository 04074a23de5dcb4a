"""The local engine's SIMD 4-bit kernels (buildsys/engine/local_kernels.py): the wasm reader and writer, the
checks that keep a body movable, and the kernels' sums against a reference on random blocks."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from buildsys.common import NODE_MODULES, BuildError
from buildsys.engine import local_kernels, wasm_binary
from tests import quant_blocks
from tests.node_json import run_node

pytestmark = pytest.mark.skipif(not local_kernels.zig_available(), reason=f"needs {local_kernels.ZIG_PIN}")

RUNNER = Path(__file__).with_name("quant_dot_runner.mjs")
LINK = quant_blocks.LINK
COMPAT_ENGINE = NODE_MODULES / "@wllama" / "wllama-compat" / "wasm" / "wllama.wasm"
DEFAULT_ENGINE = NODE_MODULES / "@wllama" / "wllama" / "esm" / "wasm" / "wllama.wasm"


def test_the_kernels_sum_like_ggml_on_random_blocks() -> None:
    """Plain SIMD under Node; the relaxed-SIMD build is checked in Chromium (tests/e2e/test_local_kernels.py):
    Node 20's relaxed SIMD, behind a flag, predates the standard and multiplies differently."""
    calls, expected = quant_blocks.cases(7)
    linked = local_kernels.compile_object("wasm32", link=LINK)
    [out] = run_node(RUNNER, {"wasm": base64.b64encode(linked).decode(), "cases": calls})
    for got, want in zip(out["results"], expected, strict=True):
        assert got == pytest.approx(want, rel=1e-4, abs=1e-6)


@pytest.mark.parametrize("relaxed", [False, True], ids=["simd128", "relaxed-simd"])
def test_linking_leaves_the_bodies_as_compiled(relaxed: bool) -> None:
    """The run above is of a linked module; what the build moves is the object's bodies: the same bytes."""
    linked = wasm_binary.parse(local_kernels.compile_object("wasm32", link=LINK, relaxed=relaxed))
    kernels = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32", relaxed=relaxed))
    for name in local_kernels.KERNELS:
        assert linked.body_of(linked.function_index(name)) == kernels.body_of(kernels.function_index(name))


OTHER_KERNELS = "".join(f"void {name}(int n, float *s) {{ *s = n; }}\n" for name in local_kernels.KERNELS[1:])


@pytest.mark.parametrize(
    ("first_kernel", "refusal"),
    [
        ("void helper(float *);\nvoid %s(int n, float *s) { helper(s); }\n", "must not call out"),
        ("void %s(int n, float *s) { volatile float t[64]; t[n & 63] = 1; *s = t[1]; }\n", "symbol kind 2"),
    ],
    ids=["a call", "the stack pointer"],
)
def test_a_body_that_refers_to_its_module_is_refused(tmp_path: Path, first_kernel: str, refusal: str) -> None:
    source = tmp_path / "quant_dot.c"
    source.write_text(first_kernel % local_kernels.KERNELS[0] + OTHER_KERNELS)
    with pytest.raises(wasm_binary.WasmError, match=refusal):
        local_kernels.leaf_kernels(local_kernels.compile_object("wasm32", source=source))


def test_a_kernel_that_calls_another_is_refused(tmp_path: Path) -> None:
    """A call between the kernels names no outside symbol, but its callee's index would not hold in the
    engine: the code's relocations give it away."""
    first, second, third = local_kernels.KERNELS
    source = tmp_path / "quant_dot.c"
    source.write_text(
        f"__attribute__((noinline)) void {second}(int n, float *s) {{ *s = n; }}\n"
        f"void {first}(int n, float *s) {{ {second}(n, s); *s += 1; }}\n"
        f"void {third}(int n, float *s) {{ *s = n; }}\n"
    )
    with pytest.raises(BuildError, match=r"reloc\.CODE"):
        local_kernels.leaf_kernels(local_kernels.compile_object("wasm32", source=source))


@pytest.mark.skipif(not COMPAT_ENGINE.exists(), reason="needs web/node_modules (python build.py)")
def test_the_splice_replaces_the_kernels_bodies_and_nothing_else() -> None:
    engine_bytes = COMPAT_ENGINE.read_bytes()
    engine = wasm_binary.parse(engine_bytes)
    assert wasm_binary.with_bodies(engine, {}) == engine_bytes  # written back byte for byte
    assert local_kernels.target_of(engine) == "wasm32"
    kernels = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32"))
    spliced = wasm_binary.parse(local_kernels.splice(engine, kernels))
    changed = {i for i, (a, b) in enumerate(zip(engine.bodies, spliced.bodies, strict=True)) if a != b}
    assert changed == {engine.defined(engine.function_index(name)) for name in local_kernels.KERNELS}
    assert spliced.sections[:3] == engine.sections[:3] and spliced.names == engine.names


@pytest.mark.skipif(not DEFAULT_ENGINE.exists(), reason="needs web/node_modules (python build.py)")
def test_a_kernel_of_the_wrong_pointer_width_is_refused() -> None:
    engine = wasm_binary.parse(DEFAULT_ENGINE.read_bytes())
    assert local_kernels.target_of(engine) == "wasm64"
    kernels32 = local_kernels.leaf_kernels(local_kernels.compile_object("wasm32"))
    with pytest.raises(BuildError, match="type"):
        local_kernels.splice(engine, kernels32)


def test_a_module_cut_short_is_refused() -> None:
    data = local_kernels.compile_object("wasm32")
    with pytest.raises(wasm_binary.WasmError):
        wasm_binary.parse(data[: len(data) // 2])
    with pytest.raises(wasm_binary.WasmError):
        wasm_binary.parse(b"not wasm")
