"""Runs inside Pyodide (under node, at build time): adds compiled bytecode to wheels.

Wheels from the package index and our own carry only .py sources, so every page load compiled each
module again — about three seconds of the agent phase. Compiling needs Pyodide's own CPython
(the .pyc format is version-specific), hence this runs in Pyodide rather than in the build's Python.
The .pyc files are unchecked-hash pycs beside their sources: the import system uses them without
comparing timestamps (extracted files get fresh mtimes), and tracebacks still show source lines.
"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from importlib import _bootstrap_external  # type: ignore[attr-defined]

SITE = f"/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages/"


def _pyc(name: str, source: bytes) -> bytes | None:
    """The unchecked-hash pyc of one module, or None when it does not compile here."""
    try:
        code = compile(source, SITE + name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None  # e.g. a module for another Python version: left to fail (or not) at import
    return bytes(_bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source), False))


def add_bytecode(path: str) -> int:
    """Rewrite the wheel at `path` with a __pycache__ entry per module; returns how many were added."""
    with zipfile.ZipFile(path) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    added = 0
    record_extra: list[str] = []
    out: list[tuple[zipfile.ZipInfo, bytes]] = []
    for info, data in entries:
        out.append((info, data))
        if not info.filename.endswith(".py") or "__pycache__" in info.filename:
            continue
        compiled = _pyc(info.filename, data)
        if compiled is None:
            continue
        target = importlib.util.cache_from_source(info.filename)
        out.append((zipfile.ZipInfo(target, date_time=info.date_time), compiled))
        record_extra.append(f"{target},,")
        added += 1
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for info, data in out:
            if info.filename.endswith(".dist-info/RECORD"):
                data = data.rstrip(b"\n") + b"\n" + "\n".join(record_extra).encode() + b"\n"
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return added
