"""The pinned artifacts of pins.toml: what to download, and the sha256 each must have."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from buildsys.common import ROOT, BuildError, sha256_file


@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    file: str
    sha256: str
    # Fetched by the page only when first needed (pytest's wheels): not part of the offline precache.
    on_demand: bool = False


@dataclass(frozen=True)
class Suite:
    """A project's source distribution whose own tests are run in the sandbox (tests, benchmarks)."""

    name: str
    version: str
    file: str
    sha256: str


@dataclass(frozen=True)
class EnginePin:
    """One of the local engine's wasm files as dist/ ships it (buildsys/engine/engine_pin.py), and the inputs
    its digest follows from."""

    file: str  # its path in dist/
    sha256: str
    package: str  # the npm package and version it comes from
    source_sha256: str  # the package's own wasm file
    kernels_sha256: str  # buildsys/engine/kernels/quant_dot.c
    compiler: str  # the Zig that compiled the kernels
    flags: str  # clang's flags for them


@dataclass(frozen=True)
class Pins:
    pyodide_version: str
    platform: str
    python: str
    abi: str
    pyodide_files: dict[str, str]
    wheels: list[Wheel]
    suites: list[Suite]
    engine: dict[str, EnginePin] = field(default_factory=dict)  # by file


def load(path: Path = ROOT / "pins.toml") -> Pins:
    data = tomllib.loads(path.read_text())
    core = data["pyodide"]
    return Pins(
        pyodide_version=core["version"],
        platform=core["platform"],
        python=core["python"],
        abi=core["abi"],
        pyodide_files=dict(core["files"]),
        wheels=[Wheel(**entry) for entry in data["wheel"]],
        suites=[Suite(**entry) for entry in data.get("suite", [])],
        engine={entry["file"]: EnginePin(**entry) for entry in data.get("engine", [])},
    )


def verify(path: Path, expected: str) -> None:
    """Stop the build when a downloaded file is not the pinned one."""
    if not path.exists():
        raise BuildError(f"missing artifact {path.name} (expected at {path})")
    actual = sha256_file(path)
    if actual != expected:
        raise BuildError(
            f"sha256 mismatch for {path.name}: pinned {expected}, got {actual}. "
            "The download is not the pinned artifact; refusing to build. "
            "If you upgraded it on purpose, update pins.toml."
        )
