"""The compiled kernels' cache (buildsys/engine/local_kernels.py): an entry appears whole or not at all, so a
build cut short never leaves half an object that the next build would splice into the engine."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from buildsys.engine import local_kernels

OBJECT = b"\0asm\x01\0\0\0" + b"kernels" * 1000


def fake_zig(cmd: list[str], **_kwargs: object) -> subprocess.CompletedProcess[str]:
    Path(cmd[cmd.index("-o") + 1]).write_bytes(OBJECT)
    return subprocess.CompletedProcess(cmd, 0, "", "")


@pytest.fixture
def compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """A stand-in for Zig that writes OBJECT where it is told to, and the cache in tmp_path."""
    calls: list[list[str]] = []

    def run(cmd: list[str], **_kwargs: object) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return fake_zig(cmd)

    monkeypatch.setattr(local_kernels, "CACHE", tmp_path)
    monkeypatch.setattr(subprocess, "run", run)
    return calls


def test_a_compiled_object_is_cached_and_read_back(compiler: list[list[str]], tmp_path: Path) -> None:
    assert local_kernels.compile_object("wasm32") == OBJECT
    assert local_kernels.compile_object("wasm32") == OBJECT
    assert len(compiler) == 1
    [entry] = (tmp_path / "kernels").iterdir()
    assert entry.read_bytes() == OBJECT and entry.suffix == ".wasm"


def test_a_write_cut_short_leaves_no_entry_and_no_scrap(
    compiler: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up after the first 100 bytes of the entry (a file size limit, in this process)."""
    resource = pytest.importorskip("resource")
    before = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not the process

    def compile_then_fill_up(cmd: list[str], **_kwargs: object) -> subprocess.CompletedProcess[str]:
        done = fake_zig(cmd)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, before[1]))
        return done

    monkeypatch.setattr(subprocess, "run", compile_then_fill_up)
    try:
        with pytest.raises(OSError):
            local_kernels.compile_object("wasm32")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, before)
        signal.signal(signal.SIGXFSZ, previous)
    assert list((tmp_path / "kernels").iterdir()) == []
    monkeypatch.setattr(subprocess, "run", fake_zig)
    assert local_kernels.compile_object("wasm32") == OBJECT  # compiled again, not read back cut short


def test_the_flags_compiled_with_are_the_ones_the_pins_record(compiler: list[list[str]]) -> None:
    local_kernels.compile_object("wasm64", relaxed=True)
    [cmd] = compiler
    flags = local_kernels.compiler_flags("wasm64", relaxed=True)
    assert cmd[cmd.index("cc") + 1 : cmd.index("-o")] == flags
    assert (
        " ".join(flags) == "--target=wasm64-freestanding -O3 -g0 -msimd128 -ffreestanding -c -mrelaxed-simd"
    )
