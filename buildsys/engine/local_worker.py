"""The engine's worker as a file of this origin (docs/local-model.md, "The page's policy").

wllama starts its worker from a `blob:` URL of code it puts together at run time (its run options, the
Emscripten glue, its worker code). A `blob:` worker inherits the page's Content-Security-Policy, so the page
had to allow `blob:` workers and `'wasm-unsafe-eval'` for the wasm that worker compiles. The build writes
the same code into files instead (`WORKER`, and `COMPAT_WORKER` with the compat build's glue): the run
options come from the worker's name. It bundles a copy of wllama's module (`patched_module`) whose worker
proxy starts the file given as its `jsPath` rather than a `blob:` URL. A dedicated worker loaded from a URL
of this origin runs under the policy of its own response, not the page's meta policy: the page's policy
allows neither, and nothing compiles wasm on the page's thread.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from buildsys.common import DIST, DIST_CACHE, NODE_MODULES, BuildError

PACKAGE = NODE_MODULES / "@wllama" / "wllama"
MODULE = PACKAGE / "esm" / "index.js"  # what `import "@wllama/wllama"` bundles
GENERATED = PACKAGE / "src" / "workers-code" / "generated.ts"  # the worker code the module embeds
COMPAT_GLUE = NODE_MODULES / "@wllama" / "wllama-compat" / "wasm" / "wllama.js"
PATCHED = DIST_CACHE / "wllama" / "index.js"
WORKER = "local-model/wllama-worker.js"
COMPAT_WORKER = "local-model/compat/wllama-worker.js"
# The worker proxy's changes, each anchor found exactly once: no code is fetched or put together, and the
# worker is the file (`jsPath`, set by web/src/local-model/engine.js) with the run options as its name.
SWAPS = (
    (
        "let moduleCode = JSPI_STUB + (yield this.getModuleCode());",
        'let moduleCode = ""; // the worker is a file of this origin (buildsys/engine/local_worker.py)',
    ),
    (
        "this.worker = createWorker(completeCode);",
        'this.worker = new Worker(this.resources.jsPath, { type: "module", name: JSON.stringify('
        "{ ...runOptions, noWebGPU: !!this.resources.noWebGPU }) });",
    ),
)
# The worker code the module embeds, emptied in the copy: it runs only from the worker files (150 KB less).
EMBEDDED = ("WLLAMA_EMSCRIPTEN_CODE", "LLAMA_CPP_WORKER_CODE")
HEAD = """// The worker of the model in the page: wllama's worker code, written into a file by the build
// (buildsys/engine/local_worker.py) so that the page never starts a blob: worker. Its run options are
// its name.
const RUN_OPTIONS = JSON.parse(self.name)"""


def _text(path: Path) -> str:
    if not path.exists():
        raise BuildError(f"{path} is missing: is @wllama installed (web/package.json)?")
    return path.read_text()


def _found(pattern: str, text: str, what: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    if not match:
        raise BuildError(
            f"wllama's module has no {what}: has its version changed? (buildsys/engine/local_worker.py)"
        )
    return match.group(1)


def embedded_code() -> dict[str, str]:
    """The worker code wllama's module embeds, by name (LLAMA_CPP_WORKER_CODE, WLLAMA_EMSCRIPTEN_CODE)."""
    return {
        name: json.loads(value)
        for name, value in re.findall(r'export const (\w+) = (".*");\n', _text(GENERATED))
    }


def worker_source(glue: str, module: str, code: dict[str, str]) -> str:
    """The text of one worker file: what wllama would put in its `blob:` URL, its run options read from
    the worker's name. `glue` is the Emscripten glue of the wasm build the worker runs."""
    stub = _found(r"var JSPI_STUB = `(.*?)`;", module, "JSPI stub")
    gpu_off = _found(
        r"moduleCode = '(try\{Object\.defineProperty\(WorkerNavigator.*?)' \+ moduleCode;",
        module,
        "WebGPU switch",
    )
    main = (stub + glue).replace("var Module", "var ___Module", 1)
    init = f"function wModuleInit() {{ if (RUN_OPTIONS.noWebGPU) {{ {gpu_off} }}\n{main}; return Module; }}"
    return ";\n\n".join([HEAD, init, code["LLAMA_CPP_WORKER_CODE"]])


def patched_module(module: str) -> str:
    """wllama's module with its worker proxy starting the worker file (`SWAPS`)."""
    for anchor, replacement in SWAPS:
        if module.count(anchor) != 1:
            raise BuildError(f"wllama's module has not one `{anchor}`: has its version changed?")
        module = module.replace(anchor, replacement)
    for name in EMBEDDED:
        module, found = re.subn(rf"^var {name} = (['\"]).*\1;$", f'var {name} = "";', module, flags=re.M)
        if found != 1:
            raise BuildError(f"wllama's module has not one {name}: has its version changed?")
    return module


def write_patched_module() -> Path:
    """Write the patched module for the bundler (`--alias:@wllama/wllama=`) when it changed; its path."""
    text = patched_module(_text(MODULE))
    PATCHED.parent.mkdir(parents=True, exist_ok=True)
    if not PATCHED.exists() or PATCHED.read_text() != text:
        PATCHED.write_text(text)
    return PATCHED


def write_workers() -> None:
    """Write both worker files into dist/ when their bytes changed."""
    module, code = _text(MODULE), embedded_code()
    for name, glue in ((WORKER, code["WLLAMA_EMSCRIPTEN_CODE"]), (COMPAT_WORKER, _text(COMPAT_GLUE))):
        target = DIST / name
        text = worker_source(glue, module, code)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_text() != text:
            target.write_text(text)
