"""The engine that runs a GGUF model in the page (docs/local-model.md): wllama's WebAssembly build.

`python build.py` copies the one wasm file the pinned `@wllama/wllama` ships into dist/local-model/ beside
the page-side bundle (`local-engine.js`). Both are fetched only when the user chooses a model in this
browser: the service worker does not precache them (the first visit's bytes do not grow) and keeps them,
checked against this build's sha256, the first time the page asks for them (`ON_USE`), so a model used
once keeps working offline.

The package's wasm is built with shared memory, Memory64 and JSPI. It runs single-threaded here: the page is
not cross-origin isolated, so no SharedArrayBuffer can be posted to pthread workers; isolating the page
(COOP/COEP headers) would let wllama start threads with the same file.
"""

from __future__ import annotations

from buildsys.common import DIST, NODE_MODULES, BuildError

PACKAGE = NODE_MODULES / "@wllama" / "wllama"
WASM_SOURCE = PACKAGE / "esm" / "wasm" / "wllama.wasm"
WASM = "local-model/wllama.wasm"
BUNDLE = "local-engine.js"
ON_USE = frozenset({BUNDLE, WASM})  # fetched and kept by the service worker on first use only


def copy() -> None:
    """Copy the engine's wasm into dist/ (skipped when the copy already holds the same bytes)."""
    if not WASM_SOURCE.exists():
        raise BuildError(f"{WASM_SOURCE} is missing: is @wllama/wllama installed (web/package.json)?")
    target = DIST / WASM
    target.parent.mkdir(parents=True, exist_ok=True)
    data = WASM_SOURCE.read_bytes()
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
