"""Faster bodies for the local engine's block dot products, put into wllama's wasm at build time.

wllama 3.13.0 builds a llama.cpp whose `ggml_vec_dot_q4_0_q8_0` and `ggml_vec_dot_q4_1_q8_1` have no
WebAssembly SIMD path (they run one byte at a time), and whose `ggml_vec_dot_q8_0_q8_0` converts each
block's scales one by one; on a Q4 model they are most of the engine's time (docs/local-model.md, "What the
build changes"). `buildsys/engine/kernels/quant_dot.c` holds SIMD versions with the same names, signature and
block layouts. The build compiles it with the pinned Zig's clang for the engine file's address width and
replaces those function bodies in the copy it puts in dist/.

A body can move from one module to another unchanged only if it refers to nothing of its module: it is
compiled to an object file, which must have no relocations in its code, no symbol but the kernels (so no
call and no global, the stack pointer included) and no import but the memory. The types must match the
engine's own functions. The default build gets two copies: one whose 4-bit kernels use relaxed SIMD
(Chromium, Firefox 146 and later: 30-40% faster) and one with plain SIMD only, for an engine without it.
What comes out is pinned by digest (buildsys/engine/engine_pin.py): without the pinned Zig the build stops.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import subprocess
import tempfile
from pathlib import Path

from buildsys.common import CACHE, ROOT, BuildError, fingerprint, python
from buildsys.engine import wasm_binary

SOURCE = ROOT / "buildsys" / "engine" / "kernels" / "quant_dot.c"
ZIG_PIN = "ziglang==0.17.1"  # also pinned in pyproject.toml [build] and [test]
KERNELS = ("ggml_vec_dot_q4_0_q8_0", "ggml_vec_dot_q4_1_q8_1", "ggml_vec_dot_q8_0_q8_0")
I64 = 0x7E
FLAGS = ["-O3", "-g0", "-msimd128", "-ffreestanding", "-c"]


def zig_available() -> bool:
    importlib.invalidate_caches()  # the build may have installed it a moment ago
    return importlib.util.find_spec("ziglang") is not None


def compiler() -> str:
    """The Zig this machine would compile with, written as ZIG_PIN is when it is the pinned one."""
    if not zig_available():
        return "no ziglang installed"
    try:
        return f"ziglang=={importlib.metadata.version('ziglang')}"
    except importlib.metadata.PackageNotFoundError:
        return "ziglang of unknown version"


def compiler_flags(target: str, relaxed: bool, link: list[str] | None = None) -> list[str]:
    """clang's flags for `target` (`wasm32` or `wasm64`): an object file, or a linked module given `link`."""
    flags = FLAGS if link is None else [flag for flag in FLAGS if flag != "-c"] + ["-nostdlib", *link]
    return [f"--target={target}-freestanding", *flags, *(["-mrelaxed-simd"] if relaxed else [])]


def compile_object(
    target: str, source: Path = SOURCE, link: list[str] | None = None, relaxed: bool = False
) -> bytes:
    """`source` compiled for `wasm32` or `wasm64` to a relocatable object (cached by source, compiler and
    flags), or, given `link` (linker flags), to a linked module: the tests run the kernels that way.
    `relaxed` allows relaxed SIMD instructions."""
    flags = compiler_flags(target, relaxed, link)
    key = fingerprint(source, compiler(), " ".join(flags))[:16]
    cached = CACHE / "kernels" / f"{source.stem}-{target}-{key}.wasm"
    if cached.exists():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.wasm"
        cmd = [python(), "-m", "ziglang", "cc", *flags, "-o", str(out), str(source)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(f"compiling {source.name} for {target} failed:\n{proc.stderr.strip()[-1200:]}")
        data = out.read_bytes()
    _write_atomically(cached, data)
    return data


def _write_atomically(path: Path, data: bytes) -> None:
    """A cache entry appears whole or not at all: two builds, or a build cut short, never leave half a file
    that a later build would read as compiled kernels."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def leaf_kernels(data: bytes) -> wasm_binary.Module:
    """The parsed object, refused unless its bodies can be moved unchanged into another module."""
    module = wasm_binary.parse(data)
    if "reloc.CODE" in module.custom:
        raise BuildError(f"{SOURCE.name}: the kernels' code refers to their module (reloc.CODE)")
    if [kind for _, _, kind in module.imports] != [2]:
        raise BuildError(f"{SOURCE.name}: the kernels may import the memory only, not {module.imports}")
    if sorted(module.names.values()) != sorted(KERNELS):
        raise BuildError(
            f"{SOURCE.name}: expected the functions {KERNELS}, found {sorted(module.names.values())}"
        )
    return module


def target_of(engine: wasm_binary.Module) -> str:
    """wasm64 when the engine's pointers are 64-bit (its kernels take i64 arguments), else wasm32."""
    params = engine.type_of(engine.function_index(KERNELS[0])).params
    return "wasm64" if I64 in params else "wasm32"


def splice(engine: wasm_binary.Module, kernels: wasm_binary.Module) -> bytes:
    """The engine's bytes with each kernel's body in place of the function of the same name."""
    replacements = {}
    for name in KERNELS:
        index, own = engine.function_index(name), kernels.function_index(name)
        if engine.type_of(index) != kernels.type_of(own):
            raise BuildError(f"{name}: the kernel's type {kernels.type_of(own)} is not the engine's")
        replacements[index] = kernels.body_of(own)
    return wasm_binary.with_bodies(engine, replacements)


def with_simd_kernels(engine: wasm_binary.Module, relaxed: bool) -> bytes:
    """The engine's bytes with the build's kernels (`relaxed`: with relaxed SIMD instructions, for engines
    that have them)."""
    if not zig_available():
        raise BuildError(f"{ZIG_PIN} is not installed: python -m pip install {ZIG_PIN}")
    return splice(engine, leaf_kernels(compile_object(target_of(engine), relaxed=relaxed)))
