"""The local engine's wasm files pinned by digest (buildsys/engine/engine_pin.py): the build writes the pinned
bytes or stops, naming the file, both digests and what to do; it never ships bytes of its own."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import pytest

from buildsys.build import pins
from buildsys.common import BuildError
from buildsys.engine import engine_pin, local_engine, local_kernels, local_worker, wasm_binary

NAME = "local-model/compat/wllama.wasm"
ENGINE_FILES = (local_engine.WASM, local_engine.WASM_SIMD128, *local_engine.COMPAT)
REAL_SOURCES = pytest.mark.skipif(
    not (local_engine.WASM_SOURCE.exists() and (local_engine.COMPAT_PACKAGE / "wllama.wasm").exists()),
    reason="needs web/node_modules (python build.py)",
)


def _section(section_id: int, items: list[bytes]) -> bytes:
    payload = wasm_binary.encode_uleb(len(items)) + b"".join(items)
    return bytes([section_id]) + wasm_binary.encode_uleb(len(payload)) + payload


def fake_engine() -> bytes:
    """A wasm32 module with the three kernels' names and types, each body empty: an engine to splice."""
    kernel_type = bytes([0x60, 8]) + b"\x7f" * 8 + b"\x00"
    names = [name.encode() for name in local_kernels.KERNELS]
    exports = [wasm_binary.encode_uleb(len(n)) + n + b"\x00" + bytes([i]) for i, n in enumerate(names)]
    return (
        wasm_binary.MAGIC
        + _section(wasm_binary.TYPE, [kernel_type])
        + _section(wasm_binary.FUNCTION, [b"\x00"] * 3)
        + _section(wasm_binary.EXPORT, exports)
        + _section(wasm_binary.CODE, [b"\x02\x00\x0b"] * 3)
    )


SHIPPED = fake_engine()
SPLICED = SHIPPED.replace(b"\x02\x00\x0b", b"\x02\x00\x01", 1)  # "the kernels": one body changed


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pin_for(data: bytes, **changed: str) -> pins.EnginePin:
    """The pin a build on this machine would write for SHIPPED spliced into `data`, with `changed` inputs."""
    made = engine_pin.recipe(wasm_binary.parse(SHIPPED), SHIPPED, "@wllama/wllama-compat", False)
    fields = {**vars(made), "compiler": local_kernels.ZIG_PIN, **changed}
    return pins.EnginePin(file=NAME, sha256=digest(data), **fields)


@pytest.fixture
def splicing(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The pinned Zig, as far as the pin can tell, and a splice that returns what the test puts in."""
    made = [SPLICED]
    monkeypatch.setattr(local_kernels, "zig_available", lambda: True)
    monkeypatch.setattr(local_kernels, "compiler", lambda: local_kernels.ZIG_PIN)
    monkeypatch.setattr(local_kernels, "with_simd_kernels", lambda engine, relaxed: made[0])
    return made


def without_zig(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ziglang" else real(name, *a)
    )


def pinned(data: bytes, pin: pins.EnginePin | None) -> bytes:
    return engine_pin.pinned_bytes(NAME, SHIPPED, "@wllama/wllama-compat", False, {NAME: pin} if pin else {})


def test_the_pinned_bytes_pass(splicing: list[bytes]) -> None:
    assert pinned(SHIPPED, pin_for(SPLICED)) == SPLICED


def test_a_splice_that_makes_other_bytes_fails_the_build(splicing: list[bytes]) -> None:
    splicing[0] = other = SPLICED + b"\0"
    with pytest.raises(BuildError) as refused:
        pinned(SHIPPED, pin_for(SPLICED))
    message = str(refused.value)
    assert message.startswith(f"{NAME}: this build makes sha256 {digest(other)}")
    assert f"pins.toml pins {digest(SPLICED)}" in message and "refusing to ship it" in message
    assert "The pinned inputs made other bytes" in message


def test_without_zig_the_build_fails_and_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    without_zig(monkeypatch)
    with pytest.raises(BuildError) as refused:
        pinned(SHIPPED, pin_for(SPLICED))
    message = str(refused.value)
    assert f"sha256 {digest(SHIPPED)}" in message and digest(SPLICED) in message
    assert f"compiler: pinned {local_kernels.ZIG_PIN}, here no ziglang installed" in message
    assert f"python -m pip install {local_kernels.ZIG_PIN}" in message


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("package", "@wllama/wllama-compat 3.12.0"),
        ("kernels_sha256", "0" * 64),
        ("flags", "-O2"),
        ("source_sha256", "1" * 64),
    ],
)
def test_an_input_changed_since_the_pin_is_named(splicing: list[bytes], field: str, value: str) -> None:
    with pytest.raises(BuildError) as refused:
        pinned(SHIPPED, pin_for(SPLICED + b"old", **{field: value}))
    message = str(refused.value)
    assert f"  {field}: pinned {value}, here " in message
    assert f'update its [[engine]] entry in pins.toml (sha256 = "{digest(SPLICED)}"' in message


def test_a_file_without_a_pin_is_refused_with_the_entry_to_add(splicing: list[bytes]) -> None:
    with pytest.raises(BuildError, match=rf'no pin in pins.toml(.|\n)*sha256 = "{digest(SPLICED)}"'):
        pinned(SHIPPED, None)


@REAL_SOURCES
def test_the_pins_name_the_inputs_of_this_checkout() -> None:
    """pins.toml's reasons are this checkout's: the package, its file, the kernels and the flags."""
    engine = pins.load().engine
    assert sorted(engine) == sorted(ENGINE_FILES)
    sources = {local_engine.WASM: (local_engine.WASM_SOURCE, "@wllama/wllama", True)}
    sources[local_engine.WASM_SIMD128] = (local_engine.WASM_SOURCE, "@wllama/wllama", False)
    sources[NAME] = (local_engine.COMPAT_PACKAGE / "wllama.wasm", "@wllama/wllama-compat", False)
    for name, (source, package, relaxed) in sources.items():
        shipped = source.read_bytes()
        made = engine_pin.recipe(wasm_binary.parse(shipped), shipped, package, relaxed)
        assert {**vars(made), "compiler": local_kernels.ZIG_PIN} == {
            key: getattr(engine[name], key) for key in engine_pin.INPUTS
        }


@pytest.fixture
def dist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(local_engine, "DIST", tmp_path)
    monkeypatch.setattr(local_worker, "write_workers", lambda: None)
    return tmp_path


@REAL_SOURCES
def test_the_build_without_zig_stops_before_writing_the_engine(
    dist: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_zig(monkeypatch)
    with pytest.raises(BuildError) as refused:
        local_engine.copy()
    pin = pins.load().engine[local_engine.WASM]
    message = str(refused.value)
    assert message.startswith(f"{local_engine.WASM}: this build makes sha256 ")
    assert f"pins.toml pins {pin.sha256}" in message and "pip install ziglang==" in message
    assert not (dist / local_engine.WASM).exists()


@REAL_SOURCES
@pytest.mark.skipif(not local_kernels.zig_available(), reason=f"needs {local_kernels.ZIG_PIN}")
def test_the_build_refuses_a_splice_that_differs_and_writes_the_pinned_bytes(
    dist: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local_engine.copy()
    engine = pins.load().engine
    assert {name: digest((dist / name).read_bytes()) for name in ENGINE_FILES} == {
        name: engine[name].sha256 for name in ENGINE_FILES
    }
    (dist / local_engine.WASM).unlink()
    real = wasm_binary.with_bodies
    monkeypatch.setattr(wasm_binary, "with_bodies", lambda module, bodies: real(module, bodies) + b"\0")
    with pytest.raises(BuildError, match=rf"^{local_engine.WASM}: this build makes sha256 "):
        local_engine.copy()
    assert not (dist / local_engine.WASM).exists()
