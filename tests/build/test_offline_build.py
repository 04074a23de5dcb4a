"""The service worker's build side: cache names per build, what it precaches, the precompressed copies."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from buildsys.build import compress, manifest, offline
from tests.build.test_build_manifest import make_dist


def test_each_build_has_its_own_cache_under_one_prefix() -> None:
    a, b = offline.cache_name("0123456789abcdef"), offline.cache_name("fedcba9876543210")
    assert a != b
    assert a.startswith(offline.CACHE_PREFIX) and b.startswith(offline.CACHE_PREFIX)
    assert a.endswith("0123456789abcdef")


@pytest.mark.parametrize("bad", ["", "../x", "ABCDEF", "build 1"])
def test_a_cache_name_needs_a_real_build_id(bad: str) -> None:
    with pytest.raises(ValueError):
        offline.cache_name(bad)


def test_the_worker_precaches_every_served_file_but_maps_and_bench_pages(tmp_path: Path) -> None:
    files = {
        "index.html": b"i",
        "app.js": b"a",
        "app.js.map": b"m",
        "bare.html": b"b",
        "sandbox/frame.html": b"f",
        "pyodide/pyodide.asm.wasm": b"w",
    }
    built = manifest.write(make_dist(tmp_path, files), "314")
    kept = offline.precached(built["files"])
    assert list(kept) == ["app.js", "index.html", "pyodide/pyodide.asm.wasm", "sandbox/frame.html"]
    assert kept["app.js"] == built["files"]["app.js"]["sha256"]


def test_the_written_worker_carries_its_build_and_changes_with_it(tmp_path: Path) -> None:
    dist = make_dist(tmp_path, {"index.html": b"one", "app.js": b"a"})
    first = offline.write(dist, manifest.write(dist, "314")).read_text()
    make_dist(dist, {"app.js": b"b"})
    built = manifest.write(dist, "314")
    second = offline.write(dist, built).read_text()
    assert first != second  # a changed worker script is what makes browsers notice a new build
    line = re.match(r"(?:// .*\n)const BUILD = (.*);\n", second)
    assert line, "the worker starts with its BUILD constant"
    data = json.loads(line.group(1))
    assert data["build"] == built["build"] and data["cache"] == offline.cache_name(built["build"])
    assert data["files"] == offline.precached(built["files"]) and data["manifest"] == built
    assert manifest.write(dist, "314")["build"] == built["build"]  # sw.js is not part of the id


def test_compressed_copies_are_exact_and_only_where_they_pay(tmp_path: Path) -> None:
    text = b"const value = 1;\n" * 400
    dist = make_dist(tmp_path / "dist", {"app.js": text, "tiny.js": b"x", "noise.js": bytes(range(256)) * 8})
    totals = compress.write(dist, tmp_path / "store")
    assert gzip.decompress((dist / "app.js.gz").read_bytes()) == text
    assert not (dist / "tiny.js.gz").exists()  # too small to matter
    assert not (dist / "noise.js.gz").exists() or (dist / "noise.js.gz").stat().st_size < 2048 * 0.9
    assert totals[".gz"] == sum(p.stat().st_size for p in dist.rglob("*.gz"))
    if ".br" in totals:
        import brotli  # type: ignore[import-not-found,unused-ignore]

        assert brotli.decompress((dist / "app.js.br").read_bytes()) == text


def test_a_copy_follows_its_file_and_goes_with_it(tmp_path: Path) -> None:
    dist = make_dist(tmp_path / "dist", {"app.js": b"let a = 1;\n" * 300, "old.js": b"let b = 2;\n" * 300})
    compress.write(dist, tmp_path / "store")
    (dist / "app.js").write_bytes(b"let c = 3;\n" * 300)
    (dist / "old.js").unlink()
    compress.write(dist, tmp_path / "store")
    assert gzip.decompress((dist / "app.js.gz").read_bytes()) == b"let c = 3;\n" * 300
    assert not (dist / "old.js.gz").exists() and not (dist / "old.js.br").exists()


def test_on_demand_wheels_are_kept_when_first_asked_for_not_at_install(tmp_path: Path) -> None:
    files = {"index.html": b"i", "pyodide/pytest-9.whl": b"p", "pyodide/pydantic-2.whl": b"d"}
    built = manifest.write(make_dist(tmp_path, files), "314")
    later = frozenset({"pyodide/pytest-9.whl"})
    data = json.loads(
        re.match(r"(?:// .*\n)const BUILD = (.*);\n", offline.render(built, "", later)).group(1)
    )  # type: ignore[union-attr]
    assert list(data["files"]) == ["index.html", "pyodide/pydantic-2.whl"]
    assert data["later"] == {"pyodide/pytest-9.whl": built["files"]["pyodide/pytest-9.whl"]["sha256"]}


def test_the_pinned_on_demand_wheels_are_pytest_and_its_dependencies() -> None:
    from buildsys.build import pins

    names = offline.on_demand_names(pins.load())
    wanted = ("pytest-", "pluggy-", "iniconfig-", "packaging-", "pygments-")
    assert sorted(n.split("/")[1].split("-")[0] + "-" for n in names) == sorted(wanted)
