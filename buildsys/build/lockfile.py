"""Writes the Pyodide lock file that lists exactly the vendored wheels (loaded with `lockFileURL`).

The `pyodide-lock` package rejects the 314 lock format, and the format is a small JSON document,
so it is written here from each wheel's own metadata.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

from buildsys.common import sha256_file

REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _metadata(wheel: zipfile.ZipFile) -> tuple[str, str, list[str]]:
    """(name, version, requirement names without extras markers) from the wheel's METADATA."""
    meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    name = version = ""
    requires: list[str] = []
    for line in wheel.read(meta_name).decode().splitlines():
        if not line.strip():
            break  # headers end at the first blank line
        key, _, value = line.partition(":")
        if key == "Name":
            name = value.strip()
        elif key == "Version":
            version = value.strip()
        elif key == "Requires-Dist" and "extra ==" not in value:
            match = REQUIREMENT_NAME.match(value)
            if match:
                requires.append(canonical(match.group(1)))
    return name, version, requires


def _imports(wheel: zipfile.ZipFile) -> list[str]:
    tops = set()
    for name in wheel.namelist():
        top = name.split("/", 1)[0]
        if ".dist-info" in top or ".data" in top:
            continue
        tops.add(top[:-3] if top.endswith(".py") else top)
    return sorted(t for t in tops if t.isidentifier())


def entry(path: Path, vendored: set[str]) -> tuple[str, dict]:
    with zipfile.ZipFile(path) as wheel:
        name, version, requires = _metadata(wheel)
        imports = _imports(wheel)
    key = canonical(name)
    return key, {
        "name": key,
        "version": version,
        "file_name": path.name,
        "install_dir": "site",
        "sha256": sha256_file(path),
        "package_type": "package",
        "imports": imports,
        "depends": sorted(r for r in requires if r in vendored),
        "unvendored_tests": False,
        "tool": {},
    }


def write(wheels: list[Path], info: dict, out: Path) -> None:
    """`info` is the `info` block of the Pyodide release's own lock (platform, abi, python)."""
    vendored = set()
    for path in wheels:
        with zipfile.ZipFile(path) as wheel:
            vendored.add(canonical(_metadata(wheel)[0]))
    packages = dict(entry(path, vendored) for path in wheels)
    out.write_text(json.dumps({"info": info, "packages": packages}, indent=1, sort_keys=True))
