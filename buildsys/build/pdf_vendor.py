"""The PDF reader the page ships (dist/pdf/, docs/pdf.md): pdf.js from the pinned `pdfjs-dist`, copied as is.

Only what reading text and drawing pages needs: the library, its worker (the parser) and the packed
character maps (CJK text in PDFs that do not embed their own). The page hands the library and the worker
as text to the PDF frame (web/sandbox/pdf.html), which runs them from blob: URLs in an opaque origin, and
serves it the character maps by name. Not copied: the wasm image decoders (the frame passes
`useWasm: false`), the standard font files (fonts not embedded in a PDF are drawn with fallbacks), the
viewer, the source maps. The files are loaded on first use only; the service worker keeps them with the
rest of the build.
"""

from __future__ import annotations

import json
import shutil

from buildsys.common import DIST, NODE_MODULES, BuildError, Stamps, fingerprint, say

PDF_DIR = DIST / "pdf"
PACKAGE = NODE_MODULES / "pdfjs-dist"
# package file -> served name (.js: every static server sends it as JavaScript, which a module Worker needs)
FILES = {
    "build/pdf.min.mjs": "pdf.js",
    "build/pdf.worker.min.mjs": "pdf.worker.js",
    "LICENSE": "LICENSE",
}
CMAPS = "cmaps"


def version() -> str:
    return str(json.loads((PACKAGE / "package.json").read_text())["version"])


def build(stamps: Stamps) -> None:
    if not (PACKAGE / "package.json").exists():
        raise BuildError("pdfjs-dist is missing from web/node_modules: run `python build.py` again")
    key = fingerprint(PACKAGE / "package.json", __file__)
    outputs = [PDF_DIR / name for name in FILES.values()]
    if stamps.fresh("pdf-vendor", key, *outputs):
        return
    say(f"copying the PDF reader (pdf.js {version()})")
    shutil.rmtree(PDF_DIR, ignore_errors=True)
    PDF_DIR.mkdir(parents=True)
    for source, name in FILES.items():
        shutil.copy2(PACKAGE / source, PDF_DIR / name)
    shutil.copytree(PACKAGE / CMAPS, PDF_DIR / CMAPS, ignore=shutil.ignore_patterns("LICENSE"))
    stamps.mark("pdf-vendor", key)
