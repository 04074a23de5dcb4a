"""The page's problem checkers (docs/problems.md): what the build adds beside their two bundles.

TypeScript's checker (`problems-ts.js`, bundled from web/src/problems/worker/ts-checker.js with the
pinned `typescript-lib`, TypeScript's last JavaScript release) reads the standard library's declarations
from one file the build writes, `problems/ts-lib.json` (every `lib.*.d.ts` of the package, name -> text).
Ruff's checker (`problems-ruff.js`) compiles the pinned `@astral-sh/ruff-wasm-web`'s WebAssembly, copied
to `problems/ruff.wasm`. None of them is fetched before a first visit is ready: the service worker fetches
and keeps them after it activates, one at a time, as it does pytest's wheels (`AFTER_START`), so the
checkers work offline after one visit even if they were never used online.
"""

from __future__ import annotations

import json
from pathlib import Path

from buildsys.common import DIST, NODE_MODULES, BuildError

TS_BUNDLE = "problems-ts.js"
RUFF_BUNDLE = "problems-ruff.js"
TS_LIB = "problems/ts-lib.json"
RUFF_WASM = "problems/ruff.wasm"
AFTER_START = frozenset({TS_BUNDLE, RUFF_BUNDLE, TS_LIB, RUFF_WASM})
TS_PACKAGE = NODE_MODULES / "typescript-lib"
RUFF_PACKAGE = NODE_MODULES / "@astral-sh" / "ruff-wasm-web"
# TypeScript's module reaches for Node's own modules only when it runs under Node: left out of the bundle.
NODE_BUILTINS = ("fs", "path", "os", "crypto", "inspector", "perf_hooks")


def bundler_flags(out: str) -> list[str]:
    """The bundler's flags for one bundle: the TypeScript checker's leaves Node's modules out."""
    return [f"--external:{name}" for name in NODE_BUILTINS] if out == TS_BUNDLE else []


def write() -> None:
    """Write the library declarations and copy Ruff's WebAssembly into dist/problems/, when changed."""
    libs = sorted((TS_PACKAGE / "lib").glob("lib.*.d.ts"))
    wasm = RUFF_PACKAGE / "ruff_wasm_bg.wasm"
    if not libs or not wasm.exists():
        raise BuildError("typescript-lib or @astral-sh/ruff-wasm-web is missing: run `npm ci` in web/")
    text = json.dumps({lib.name: lib.read_text(encoding="utf-8") for lib in libs}, sort_keys=True)
    _write_if_changed(DIST / TS_LIB, text.encode("utf-8"))
    _write_if_changed(DIST / RUFF_WASM, wasm.read_bytes())


def _write_if_changed(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
