"""`python build.py`: assemble dist/ — Pyodide core, wheels, the project's wheel, the lock, the front end.

Each step is skipped when its inputs have not changed since the last build (fingerprints in
.cache/build-stamps.json), so a second run with nothing changed takes seconds.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from buildsys.build import (
    asset_urls,
    compress,
    fetch,
    lockfile,
    manifest,
    oauth_client,
    offline,
    page_facts,
    pdf_vendor,
    preview_vendor,
    problems_vendor,
)
from buildsys.build import pins as pinning
from buildsys.common import (
    DIST,
    DIST_CACHE,
    NODE_MODULES,
    ROOT,
    WEB,
    BuildError,
    Stamps,
    fingerprint,
    python,
    run,
    say,
)
from buildsys.engine import local_engine

PYODIDE_DIR = DIST / "pyodide"
LOCK_NAME = "agentlite-lock.json"
OWN_WHEEL_DIR = DIST_CACHE / "own-wheel"
BYTECODE_SCRIPT = ROOT / "buildsys" / "build" / "wheel_bytecode.mjs"
STATIC = {"index.html": "index.html", "styles.css": "styles.css", "sandbox": "sandbox"}  # web/ -> dist/
STATIC["oauth-callback.html"] = "oauth-callback.html"  # where sign-in popups come back (docs/mcp.md)
# The web app manifest: an installed app opens .agentlite files (docs/projects.md).
STATIC["manifest.webmanifest"] = "manifest.webmanifest"
STATIC["_headers"] = "_headers"  # the headers static hosts send, framing refused (docs/deploying.md)
# The benchmarks' floor page (a worker that boots the Pyodide core only): its sources live apart in
# web/bench/, but it is served from dist/ beside the app so both read Pyodide from the same place.
BENCH_STATIC = {"bench/bare.html": "bare.html", "bench/bare-pdf.html": "bare-pdf.html"}
BUNDLES = {
    "src/app.js": "app.js",
    "src/agent/page/worker-start.js": "start.js",  # starts the agent worker before app.js has loaded
    "src/agent/worker/worker.js": "worker.js",
    "src/agent/worker/snapshot-maker.js": "snapshot-maker.js",  # takes the memory snapshot after ready
    "src/agent/worker/tokens.js": "worker-tokens.js",  # imported by the worker when first needed (2.76 MB)
    # the MCP connection doctor's probes (docs/mcp.md)
    "src/mcp/worker/mcp-doctor-worker.js": "mcp-doctor-worker.js",
    # downscales attached images (docs/attachments.md)
    "src/attachments/worker/image-worker.js": "image-worker.js",
    "bench/bare.js": "bare.js",
    "bench/bare-worker.js": "bare-worker.js",
    "src/sandbox/page/host.js": "sandbox-host.js",
    "src/mcp/page/oauth-callback.js": "oauth-callback.js",
    # The preview (docs/preview.md): loaded when the Preview panel first opens; the transpiler when a
    # page first has TypeScript or JSX; the loop guard in engines whose preview frame shares the app's thread;
    # the screenshot's module when preview_page first asks for a picture (its text goes to the frame); the
    # frame's runtime (web/src/preview/frame/), whose text goes to the frame with each page.
    "src/preview/page/index.js": "preview.js",
    "src/preview/page/transpiler.js": "preview-transpiler.js",
    "src/preview/page/loop-guard.js": "preview-guard.js",
    "src/preview/frame/screenshot.js": "preview-screenshot.js",  # handed to the frame for a screenshot
    "src/preview/frame/hands.js": "preview-hands.js",  # handed to the frame when the agent drives the page
    "src/preview/frame/boot.js": "preview-frame-runtime.js",  # handed to the preview frame with each page
    # The PDF reader's front (docs/pdf.md): loaded with a file's first PDF; it loads pdf.js from dist/pdf/.
    "src/pdf/pdf-text.js": "pdf-text.js",
    "src/pdf/in-frame/reader.js": "pdf-frame.js",  # handed as text to the PDF frame (web/sandbox/pdf.html)
    "src/sandbox/frame-worker/js-runtime.js": "sandbox/js-runtime.js",
    "src/sandbox/frame-worker/shell-runtime.js": "sandbox/shell-runtime.js",
    # The model in the page (docs/local-model.md): loaded only when the user chooses one.
    "src/local-model/engine.js": local_engine.BUNDLE,
    "src/local-model/worker/gguf-worker.js": local_engine.HEADER_WORKER,
    # The problem checkers (docs/problems.md): each a Worker the page starts on first use.
    "src/problems/worker/ts-checker.js": problems_vendor.TS_BUNDLE,
    "src/problems/worker/ruff-checker.js": problems_vendor.RUFF_BUNDLE,
}
# A module of the package that the shell sandbox's runtime embeds as text: its frame cannot fetch it.
SANDBOX_DRIVER = ROOT / "py" / "agentlite" / "sandbox_driver.py"
DATA_BUNDLES = {"worker-tokens.js"}  # mostly data (tokenizer ranks): minified (-20%), no source map
DATA_BUNDLES.add(problems_vendor.TS_BUNDLE)  # TypeScript's own 9 MB module: minified to 3.6 MB, no map
# The page's bundle is parsed before the composer takes input: minified (with its source map) it parses
# faster and is half the bytes.
MINIFIED_BUNDLES = {"app.js", "preview-transpiler.js", "preview-guard.js", "preview-screenshot.js"}
MINIFIED_BUNDLES |= {"preview-hands.js"}
MINIFIED_BUNDLES |= {"preview-frame-runtime.js", local_engine.BUNDLE}
# Bundles whose functions and classes keep their names when minified: the preview frame's runtime puts
# its XMLHttpRequest, Worker, Audio and eval in the page's window, where a page may read their `name`.
NAMED_BUNDLES = {"preview-frame-runtime.js"}
# Bundles that run as classic scripts (an IIFE, no module loading): the preview frame's runtime runs
# before the page's import map, which Firefox takes only until the document's first module load.
CLASSIC_BUNDLES = {"preview-frame-runtime.js"}


def pyodide_core(pins: pinning.Pins) -> dict:
    """Copy the pinned Pyodide core into dist/pyodide; return its release lock `info` block."""
    source = NODE_MODULES / "pyodide"
    for name, digest in pins.pyodide_files.items():
        pinning.verify(source / name, digest)
    PYODIDE_DIR.mkdir(parents=True, exist_ok=True)
    for name in pins.pyodide_files:
        if name != "pyodide-lock.json":
            _copy_if_changed(source / name, PYODIDE_DIR / name)
    return json.loads((source / "pyodide-lock.json").read_text())["info"]


def own_wheel(stamps: Stamps) -> Path:
    """Build the agentlite wheel from py/ with `pip wheel --no-deps`, in a clean copy of the sources."""
    key = fingerprint(ROOT / "py", ROOT / "pyproject.toml", ROOT / "README.md")
    existing = sorted(OWN_WHEEL_DIR.glob("agentlite-*.whl"))
    if existing and stamps.fresh("own-wheel", key, existing[-1]):
        return existing[-1]
    say("building the agentlite wheel")
    shutil.rmtree(OWN_WHEEL_DIR, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "py", src / "py", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, src / name)
        cmd = [python(), "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-q"]
        run([*cmd, "-w", str(OWN_WHEEL_DIR), str(src)], "pip wheel (agentlite)")
    built = sorted(OWN_WHEEL_DIR.glob("agentlite-*.whl"))
    if not built:
        raise BuildError("pip wheel produced no agentlite wheel")
    stamps.mark("own-wheel", key)
    return built[-1]


def front_end(stamps: Stamps) -> None:
    """Bundle the app and the worker with esbuild; copy the static files."""
    flags = (
        f"minified={sorted(MINIFIED_BUNDLES)} named={sorted(NAMED_BUNDLES)} classic={sorted(CLASSIC_BUNDLES)}"
        " whitespace"
    )
    static = {**STATIC, **BENCH_STATIC}
    bench_sources = [WEB / entry for entry in BUNDLES if entry.startswith("bench/")]
    sources = [
        WEB / "src",
        WEB / "package-lock.json",
        SANDBOX_DRIVER,
        ROOT / "buildsys" / "engine" / "local_worker.py",  # the engine's bundle takes a patched wllama module
        *bench_sources,
        *(WEB / s for s in static),
    ]
    key = fingerprint(*sources, flags)
    outputs = [DIST / out for out in BUNDLES.values()] + [DIST / "index.html"]
    if stamps.fresh("front-end", key, *outputs):
        return
    say("bundling the front end")
    esbuild = NODE_MODULES / ".bin" / "esbuild"
    for entry, out in BUNDLES.items():
        form = "iife" if out in CLASSIC_BUNDLES else "esm"
        cmd = [str(esbuild), entry, "--bundle", f"--format={form}", "--target=es2022", "--log-level=warning"]
        cmd += ["--external:./pyodide/*", "--external:./worker-tokens.js"]  # not bundled: loaded apart
        cmd += [f"--external:./{local_engine.BUNDLE}", *local_engine.bundler_flags(out)]
        cmd += problems_vendor.bundler_flags(out)
        cmd += [f"--outfile={DIST / out}"]
        # The rest keep their names for readable stack traces, without comments and layout (the page's
        # JSDoc types are comments: they must not cost bytes).
        cmd += ["--minify"] if out in DATA_BUNDLES | MINIFIED_BUNDLES else ["--minify-whitespace"]
        cmd += ["--keep-names"] if out in NAMED_BUNDLES else []
        cmd += [] if out in DATA_BUNDLES else ["--sourcemap=linked"]
        cmd += [
            "--alias:node:zlib=./src/sandbox/frame-worker/zlib-shim.js"
        ]  # just-bash's gzip: unavailable in a browser
        cmd += ["--loader:.py=text"]  # the sandbox's Python driver, embedded as text (SANDBOX_DRIVER)
        run(cmd, f"esbuild {entry}", cwd=WEB)
    for name, out in static.items():
        source = WEB / name
        if source.is_dir():
            shutil.copytree(source, DIST / out, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy2(source, DIST / out)
    stamps.mark("front-end", key)


def add_bytecode(wheel_names: list[str]) -> None:
    """Compile the vendored wheels' modules with Pyodide's own Python (see wheel_bytecode.py)."""
    say("compiling the wheels' Python modules to bytecode")
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is required to build (it comes with npm)")
    cmd = [node, str(BYTECODE_SCRIPT), str(NODE_MODULES / "pyodide"), str(PYODIDE_DIR), *wheel_names]
    run(cmd, "bytecode for the wheels")


def _copy_if_changed(source: Path, target: Path) -> None:
    if (
        target.exists()
        and target.stat().st_size == source.stat().st_size
        and fingerprint(target) == fingerprint(source)
    ):
        return
    shutil.copy2(source, target)


def build() -> None:
    stamps = Stamps(DIST_CACHE / "build-stamps.json")
    pins = pinning.load()
    fetch.npm_packages(stamps)
    fetch.build_tools()
    DIST.mkdir(exist_ok=True)
    info = pyodide_core(pins)
    wheels = [*list(fetch.wheels(pins).values()), own_wheel(stamps)]
    lock_key = fingerprint(*wheels, BYTECODE_SCRIPT, BYTECODE_SCRIPT.with_suffix(".py"))
    if not stamps.fresh("lock", lock_key, PYODIDE_DIR / LOCK_NAME):
        for stale in PYODIDE_DIR.glob("*.whl"):
            stale.unlink()
        for wheel in wheels:
            shutil.copy2(wheel, PYODIDE_DIR / wheel.name)
        add_bytecode([w.name for w in wheels])
        lockfile.write([PYODIDE_DIR / w.name for w in wheels], info, PYODIDE_DIR / LOCK_NAME)
        stamps.mark("lock", lock_key)
    page_facts.refresh()  # the page's tables of the agent's facts, before the page is bundled
    front_end(stamps)
    preview_vendor.build(stamps)
    pdf_vendor.build(stamps)
    problems_vendor.write()
    local_engine.copy()
    oauth_client.write(DIST)
    asset_urls.write(DIST)
    built = manifest.write(DIST, pins.pyodide_version)
    offline.write(DIST, built)
    packed = compress.write(DIST, DIST_CACHE / "compressed")
    sizes = ", ".join(f"{suffix} {size / 1e6:.1f} MB" for suffix, size in packed.items())
    say(f"dist/ is ready ({DIST}), build {built['build']} (compressed copies: {sizes})")
