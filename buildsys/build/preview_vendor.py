"""The copies of React and Preact the preview ships (dist/preview/vendor/, docs/preview.md).

A previewed page's bare `react`, `react-dom/client`, `preact/hooks`... resolve to these files (the map is
web/src/preview/common/resolve.js `VENDOR_ENTRIES`). One esbuild run with code splitting makes one ES module
per specifier and shared chunks, so every entry uses the same React. React is CommonJS: each entry
re-exports its names, listed by asking node for them at build time.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from buildsys.common import DIST, NODE_MODULES, WEB, BuildError, Stamps, fingerprint, run, say

VENDOR_DIR = DIST / "preview" / "vendor"
# output name -> (package specifier, CommonJS?)
ENTRIES = {
    "react": ("react", True),
    "react-jsx-runtime": ("react/jsx-runtime", True),
    "react-dom": ("react-dom", True),
    "react-dom-client": ("react-dom/client", True),
    "preact": ("preact", False),
    "preact-hooks": ("preact/hooks", False),
    "preact-jsx-runtime": ("preact/jsx-runtime", False),
}
PACKAGES = ("react", "react-dom", "scheduler", "preact")


def entry_source(specifier: str, commonjs: bool, names: list[str]) -> str:
    """The entry module of one specifier: ESM re-exports (named ones spelled out for CommonJS)."""
    if not commonjs:
        return f"export * from {json.dumps(specifier)};\n"
    valid = [n for n in names if n.isidentifier() and n != "default"]
    lines = [f"import m from {json.dumps(specifier)};", "export default m;"]
    if valid:
        lines.append(f"export const {{ {', '.join(valid)} }} = m;")
    return "\n".join(lines) + "\n"


def export_names(specifier: str) -> list[str]:
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is required to build (it comes with npm)")
    names = f"Object.keys(require({json.dumps(specifier)}))"
    script = f"process.env.NODE_ENV='production'; console.log(JSON.stringify({names}))"
    out = run([node, "-e", script], f"export names of {specifier}", cwd=WEB)
    return list(json.loads(out.strip().splitlines()[-1]))


def build(stamps: Stamps) -> None:
    sources = [NODE_MODULES / name / "package.json" for name in PACKAGES]
    key = fingerprint(*sources, Path(__file__))
    outputs = [VENDOR_DIR / f"{name}.js" for name in ENTRIES]
    if stamps.fresh("preview-vendor", key, *outputs):
        return
    say("bundling the preview's React and Preact copies")
    shutil.rmtree(VENDOR_DIR, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=WEB) as tmp:
        entries = []
        for name, (specifier, commonjs) in ENTRIES.items():
            names = export_names(specifier) if commonjs else []
            path = Path(tmp) / f"{name}.js"
            path.write_text(entry_source(specifier, commonjs, names))
            entries.append(str(path))
        esbuild = NODE_MODULES / ".bin" / "esbuild"
        cmd = [
            str(esbuild),
            *entries,
            "--bundle",
            "--splitting",
            "--format=esm",
            "--minify",
            "--target=es2022",
        ]
        cmd += [
            '--define:process.env.NODE_ENV="production"',
            "--chunk-names=chunk-[hash]",
            "--log-level=warning",
        ]
        cmd += [f"--outdir={VENDOR_DIR}"]
        run(cmd, "esbuild (preview vendor)", cwd=WEB)
    stamps.mark("preview-vendor", key)
