"""The local engine's kernels with relaxed SIMD, run in Chromium (docs/local-model.md, "What the build
changes"): the default build the page picks in an engine that has relaxed SIMD uses them. Node's relaxed
SIMD predates the standard, so only a browser can hold them to ggml's definition."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import Page

from buildsys.engine import local_kernels
from tests import quant_blocks

pytestmark = pytest.mark.skipif(not local_kernels.zig_available(), reason=f"needs {local_kernels.ZIG_PIN}")

# The unit runner's loop, in the page: each call's blocks at odd addresses in fresh memory.
RUN = """async ({ wasm, cases }) => {
  const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const { instance } = await WebAssembly.instantiate(bytes(wasm));
  const memory = instance.exports.memory;
  const results = [];
  for (const { fn, n, x, y } of cases) {
    const xs = bytes(x), ys = bytes(y), base = memory.buffer.byteLength;
    memory.grow(Math.ceil((xs.length + ys.length + 4096) / 65536));
    const xAt = base + 1, yAt = xAt + xs.length + 2, out = (yAt + ys.length + 8) & ~3;
    new Uint8Array(memory.buffer).set(xs, xAt);
    new Uint8Array(memory.buffer).set(ys, yAt);
    instance.exports[fn](n, out, 0, xAt, 0, yAt, 0, 1);
    results.push(new Float32Array(memory.buffer, out, 1)[0]);
  }
  return results;
}"""


@pytest.mark.parametrize("relaxed", [True, False], ids=["relaxed-simd", "simd128"])
def test_the_kernels_sum_like_ggml_in_chromium(page: Page, relaxed: bool) -> None:
    calls, expected = quant_blocks.cases(11)
    linked = local_kernels.compile_object("wasm32", link=quant_blocks.LINK, relaxed=relaxed)
    page.goto("about:blank")
    results = page.evaluate(RUN, {"wasm": base64.b64encode(linked).decode(), "cases": calls})
    for got, want in zip(results, expected, strict=True):
        assert got == pytest.approx(want, rel=1e-4, abs=1e-6)


def test_chromium_gets_the_relaxed_simd_build(page: Page, origin: str) -> None:
    """The page's own probe (web/src/local-model/wasm-features.js, exported by the engine's bundle)."""
    page.goto(f"{origin}/index.html")
    assert page.evaluate("async (url) => (await import(url)).hasRelaxedSimd()", f"{origin}/local-engine.js")
