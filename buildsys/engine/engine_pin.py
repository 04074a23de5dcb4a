"""The local engine's wasm files pinned by digest, like every other artifact of the build.

dist/ ships wllama's wasm files with three dot-product bodies spliced in (buildsys/engine/local_kernels.py),
so their bytes follow from more than a download: the package's own file, the kernels' source, the Zig that
compiles it and the flags. pins.toml's `[[engine]]` entries name those inputs beside each file's sha256.
A build that makes other bytes stops, naming the file, both digests and the inputs that differ from the
pin, so no machine (one without the pinned Zig, say) ships a dist/ of its own.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields

from buildsys.build.pins import EnginePin
from buildsys.common import NODE_MODULES, BuildError, sha256_file
from buildsys.engine import local_kernels, wasm_binary


@dataclass(frozen=True)
class Recipe:
    """The inputs one spliced file follows from on this machine, as `EnginePin` records them."""

    package: str
    source_sha256: str
    kernels_sha256: str
    compiler: str
    flags: str


INPUTS = tuple(item.name for item in fields(Recipe))


def package_label(package: str) -> str:
    """`@wllama/wllama 3.13.0`: the package as installed in web/node_modules."""
    manifest = NODE_MODULES / package / "package.json"
    version = json.loads(manifest.read_text())["version"] if manifest.exists() else "not installed"
    return f"{package} {version}"


def recipe(engine: wasm_binary.Module, shipped: bytes, package: str, relaxed: bool) -> Recipe:
    flags = local_kernels.compiler_flags(local_kernels.target_of(engine), relaxed)
    return Recipe(
        package=package_label(package),
        source_sha256=hashlib.sha256(shipped).hexdigest(),
        kernels_sha256=sha256_file(local_kernels.SOURCE),
        compiler=local_kernels.compiler(),
        flags=" ".join(flags),
    )


def pinned_bytes(name: str, shipped: bytes, package: str, relaxed: bool, pins: dict[str, EnginePin]) -> bytes:
    """The bytes dist/`name` gets: `shipped` (the package's wasm) with the build's kernels, refused unless
    they are the pinned ones. Without Zig nothing is compiled, and the package's own bytes are refused."""
    engine = wasm_binary.parse(shipped)
    made = recipe(engine, shipped, package, relaxed)
    data = local_kernels.with_simd_kernels(engine, relaxed) if local_kernels.zig_available() else shipped
    check(name, data, made, pins.get(name))
    return data


def check(name: str, data: bytes, made: Recipe, pin: EnginePin | None) -> None:
    actual = hashlib.sha256(data).hexdigest()
    if pin is None:
        entry = "\n".join(f'{key} = "{getattr(made, key)}"' for key in INPUTS)
        raise BuildError(
            f"{name} has no pin in pins.toml: add an [[engine]] entry after checking the file:\n"
            f'file = "{name}"\nsha256 = "{actual}"\n{entry}'
        )
    if actual != pin.sha256:
        raise BuildError(refusal(name, actual, made, pin))


def refusal(name: str, actual: str, made: Recipe, pin: EnginePin) -> str:
    """Which file, both digests, the inputs that differ from the pin, and what to do about it."""
    differ = [key for key in INPUTS if getattr(made, key) != getattr(pin, key)]
    lines = [f"{name}: this build makes sha256 {actual}, pins.toml pins {pin.sha256}; refusing to ship it."]
    lines += [f"  {key}: pinned {getattr(pin, key)}, here {getattr(made, key)}" for key in differ]
    if "compiler" in differ:
        lines.append(
            f"Install the pinned compiler, then build again: python -m pip install {pin.compiler} "
            "(`python build.py` installs it itself when the package index can be reached)."
        )
    elif differ:
        lines.append(
            "If that change is on purpose, check the new file and update its [[engine]] entry in pins.toml "
            f'(sha256 = "{actual}" and the values above).'
        )
    else:
        lines.append(
            "The pinned inputs made other bytes on this machine: remove .cache/kernels/ and build again; "
            "if the digest still differs, the compiler's output is not the pinned one."
        )
    return "\n".join(lines)
