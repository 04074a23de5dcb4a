"""The engine that runs a GGUF model in the page (docs/local-model.md): wllama's WebAssembly build.

`python build.py` copies the wasm file the pinned `@wllama/wllama` ships into dist/local-model/ beside
the page-side bundle (`local-engine.js`), and the compat build of the pinned `@wllama/wllama-compat` (a
wasm32 build with Asyncify instead of JSPI and Memory64, ~19 MB) into dist/local-model/compat/: wllama
switches to it by itself in an engine that lacks either feature (WebKit); Firefox runs the default build.
The engine's worker is a file of this origin for each build (buildsys/engine/local_worker.py), never a
`blob:` URL: the page's policy allows neither `blob:` workers nor wasm compilation. Each wasm file is
copied with three dot-product bodies replaced by faster ones (buildsys/engine/local_kernels.py); the
default build twice, with relaxed SIMD and without (`simd128/`), for the page to choose. The three are
pinned by sha256 in pins.toml (buildsys/engine/engine_pin.py): a build that makes other bytes stops
instead of shipping them. A chosen file's header is read in a worker of its own (`HEADER_WORKER`,
bundled from web/src/local-model/worker/gguf-worker.js).
All are fetched only when the user chooses a model in this browser: the service worker does not precache
them (the first visit's bytes do not grow) and keeps them, checked against this build's sha256, the
first time the page asks for them (`ON_USE`), so a model used once keeps working offline.

The package's wasm is built with shared memory, Memory64 and JSPI. It runs single-threaded here: the page is
not cross-origin isolated, so no SharedArrayBuffer can be posted to pthread workers; isolating the page
(COOP/COEP headers) would let wllama start threads with the same file.
"""

from __future__ import annotations

from pathlib import Path

from buildsys.build import pins
from buildsys.common import DIST, NODE_MODULES, BuildError
from buildsys.engine import engine_pin, local_worker

PACKAGE = NODE_MODULES / "@wllama" / "wllama"
WASM_SOURCE = PACKAGE / "esm" / "wasm" / "wllama.wasm"
WASM = "local-model/wllama.wasm"  # the default build, its kernels with relaxed SIMD
WASM_SIMD128 = "local-model/simd128/wllama.wasm"  # the same, plain SIMD only (engine.js picks one)
COMPAT_PACKAGE = NODE_MODULES / "@wllama" / "wllama-compat" / "wasm"
COMPAT = {"local-model/compat/wllama.wasm": "wllama.wasm"}
BUNDLE = "local-engine.js"
HEADER_WORKER = "gguf-worker.js"  # reads a chosen file's header off the page's thread
WORKERS = {local_worker.WORKER, local_worker.COMPAT_WORKER}
# kept by the service worker on first use only
ON_USE = frozenset({BUNDLE, HEADER_WORKER, WASM, WASM_SIMD128, *COMPAT, *WORKERS})
# what earlier builds shipped and this one does not (wllama fetched the compat glue to make its blob: worker)
RETIRED = ("local-model/compat/wllama.js",)


def copy() -> None:
    """Copy the engine's files into dist/, the wasm files with the build's kernels (local_kernels.py);
    each checked against its pin and written only when the copy does not already hold the same bytes."""
    pinned = pins.load().engine
    _copy_file(WASM_SOURCE, WASM, "@wllama/wllama", True, pinned)
    _copy_file(WASM_SOURCE, WASM_SIMD128, "@wllama/wllama", False, pinned)
    for name, source in COMPAT.items():
        _copy_file(COMPAT_PACKAGE / source, name, "@wllama/wllama-compat", False, pinned)
    local_worker.write_workers()
    for name in RETIRED:
        for suffix in ("", ".gz", ".br"):
            (DIST / f"{name}{suffix}").unlink(missing_ok=True)


def bundler_flags(out: str) -> list[str]:
    """The bundler's flags for one bundle: the engine's bundle takes wllama's module with its worker from a
    file (local_worker.py)."""
    return [f"--alias:@wllama/wllama={local_worker.write_patched_module()}"] if out == BUNDLE else []


def _copy_file(
    source: Path, name: str, package: str, relaxed: bool, pinned: dict[str, pins.EnginePin]
) -> None:
    if not source.exists():
        raise BuildError(f"{source} is missing: is {package} installed (web/package.json)?")
    data = engine_pin.pinned_bytes(name, source.read_bytes(), package, relaxed, pinned)
    target = DIST / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
