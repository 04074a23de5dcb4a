"""Precompressed copies of the large served files: `name.gz` always, `name.br` when `brotli` is installed.

`python build.py serve` sends one of them when the browser accepts its encoding, so the first visit
moves far fewer bytes (the Pyodide wasm: 9.6 MB raw, 3.5 MB gzip, 2.7 MB brotli). A copy is kept only
when it saves at least a tenth of the file. Copies are kept by content hash in the build cache, so a
rebundled file whose bytes did not change is not compressed again (brotli at quality 11 takes ~30 s
for the wasm).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

from buildsys.common import say, sha256_file

# Text and wasm: zips and wheels are compressed already, images are not served in bulk.
# Source maps are left out: only developer tools fetch them.
COMPRESSIBLE = {".js", ".mjs", ".wasm", ".json", ".css", ".html", ".svg", ".txt"}
MIN_BYTES = 1024
MIN_SAVING = 0.10
SKIPPED_NAMES = {"build.json", "sw.js"}  # rewritten by every build and tiny: revalidated, sent as is
BROTLI_PIN = "brotli==1.2.1"  # also pinned in pyproject.toml [build]


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip (no timestamp, no name), so two builds of the same file are byte-identical."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def brotli_codec() -> Callable[[bytes], bytes] | None:
    try:
        import brotli  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return lambda data: brotli.compress(data, quality=11)


def candidates(dist: Path) -> list[Path]:
    """The files worth compressing, sorted."""
    return sorted(
        p
        for p in dist.rglob("*")
        if p.is_file()
        and p.suffix in COMPRESSIBLE
        and p.name not in SKIPPED_NAMES
        and p.stat().st_size >= MIN_BYTES
    )


def encodings() -> dict[str, Callable[[bytes], bytes]]:
    """suffix -> compressor: gzip always, brotli when its package is installed."""
    found: dict[str, Callable[[bytes], bytes]] = {".gz": gzip_bytes}
    codec = brotli_codec()
    if codec is not None:
        found[".br"] = codec
    return found


def packed_copy(source: Path, suffix: str, compress: Callable[[bytes], bytes], store: Path) -> bytes | None:
    """The compressed bytes of `source` (from the store when its content was seen), None if not worth it."""
    stored = store / f"{sha256_file(source)}{suffix}"
    if stored.exists():
        data = stored.read_bytes()
        return data or None  # an empty entry remembers "not worth it"
    raw = source.read_bytes()
    packed = compress(raw)
    worth = len(packed) <= len(raw) * (1 - MIN_SAVING)
    store.mkdir(parents=True, exist_ok=True)
    stored.write_bytes(packed if worth else b"")
    return packed if worth else None


def write(dist: Path, store: Path) -> dict[str, int]:
    """Write the compressed copies of dist/, drop stale ones; return {suffix: bytes of all copies}.
    `store` keeps every copy by content hash between builds."""
    codecs = encodings()
    wanted: set[Path] = set()
    totals = dict.fromkeys(codecs, 0)
    for source in candidates(dist):
        for suffix, compress in codecs.items():
            target = source.with_name(source.name + suffix)
            packed = packed_copy(source, suffix, compress, store)
            if packed is None:
                continue
            if not target.exists() or target.read_bytes() != packed:
                target.write_bytes(packed)
            wanted.add(target)
            totals[suffix] += len(packed)
    for stale in [*dist.rglob("*.gz"), *dist.rglob("*.br")]:
        if stale not in wanted:
            stale.unlink()
    if ".br" not in codecs:
        say(f"brotli is not installed: gzip copies only (pip install {BROTLI_PIN})")
    return totals
