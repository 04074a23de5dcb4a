"""The build manifest `dist/build.json`: one id per build, derived from the content of every file.

The id names the build everywhere a mix of two builds must be impossible: the service worker's cache,
the worker script the page starts, the Pyodide memory snapshot's key. It changes whenever any served
file changes, and only then, so two builds of the same sources share it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from buildsys.common import sha256_file

MANIFEST = "build.json"
# Written after the id is known (they carry it), or derived copies of other files: not hashed.
UNHASHED_NAMES = {MANIFEST, "sw.js"}
UNHASHED_SUFFIXES = {".gz", ".br"}


def hashed_files(dist: Path) -> list[Path]:
    """Every served file that the build id covers, sorted by its path relative to dist/."""
    found = [
        p
        for p in dist.rglob("*")
        if p.is_file() and p.name not in UNHASHED_NAMES and p.suffix not in UNHASHED_SUFFIXES
    ]
    return sorted(found, key=lambda p: p.relative_to(dist).as_posix())


def build_id(files: dict[str, str]) -> str:
    """A short content hash over (path, sha256) pairs: the same files give the same id."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(f"{name}\0{files[name]}\n".encode())
    return digest.hexdigest()[:16]


def write(dist: Path, pyodide_version: str) -> dict:
    """Hash dist/, write build.json, and return it: {build, pyodide, files: {path: {size, sha256}}}."""
    files = {p.relative_to(dist).as_posix(): p for p in hashed_files(dist)}
    sums = {name: sha256_file(path) for name, path in files.items()}
    manifest = {
        "build": build_id(sums),
        "pyodide": pyodide_version,
        "files": {name: {"size": files[name].stat().st_size, "sha256": sums[name]} for name in sorted(files)},
    }
    (dist / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest
