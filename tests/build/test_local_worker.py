"""The engine's worker as a file of this origin (buildsys/engine/local_worker.py) and the page's policy that
follows from it: no `blob:` workers, no wasm compiled on the page's thread."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from buildsys.common import DIST, WEB
from buildsys.engine import local_engine, local_worker


def page_csp() -> dict[str, set[str]]:
    found = re.search(
        r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', (WEB / "index.html").read_text()
    )
    assert found
    return {name: set(sources) for name, *sources in (part.split() for part in found.group(1).split(";"))}


def test_the_page_policy_allows_no_blob_workers_and_no_wasm_compilation() -> None:
    csp = page_csp()
    assert "'wasm-unsafe-eval'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    assert csp["worker-src"] == {"'self'"}


def test_the_bundled_wllama_starts_its_worker_from_the_file_it_is_given() -> None:
    patched = local_worker.patched_module(local_worker.MODULE.read_text())
    assert "createWorker(completeCode)" not in patched and "this.getModuleCode()" not in patched
    assert "new Worker(this.resources.jsPath," in patched
    assert "WebAssembly.instantiate" not in patched  # the glue (and its compilation) is in the worker only


def test_a_changed_wllama_fails_the_build_rather_than_bundling_a_blob_worker() -> None:
    from buildsys.common import BuildError

    with pytest.raises(BuildError, match="version changed"):
        local_worker.patched_module("var createWorker = (code) => new Worker(URL.createObjectURL(code));")


def test_each_worker_file_is_wllamas_worker_code_reading_its_options_from_its_name(tmp_path: Path) -> None:
    module, code = local_worker.MODULE.read_text(), local_worker.embedded_code()
    source = local_worker.worker_source(code["WLLAMA_EMSCRIPTEN_CODE"], module, code)
    assert source.startswith("// The worker of the model in the page")
    assert "const RUN_OPTIONS = JSON.parse(self.name);" in source
    assert "var ___Module=" in source and code["LLAMA_CPP_WORKER_CODE"] in source
    assert "WebAssembly.instantiate" in source  # the wasm is compiled here, in the worker
    node = shutil.which("node")
    if node:
        (tmp_path / "worker.mjs").write_text(source)
        subprocess.run([node, "--check", str(tmp_path / "worker.mjs")], check=True)


def test_the_worker_files_and_the_header_reader_are_kept_on_first_use() -> None:
    assert local_engine.WORKERS | {local_engine.HEADER_WORKER} <= local_engine.ON_USE
    assert not set(local_engine.RETIRED) & local_engine.ON_USE


@pytest.mark.skipif(not (DIST / local_worker.WORKER).exists(), reason="dist/ is not built")
def test_the_built_page_bundles_compile_no_wasm_and_start_no_blob_worker() -> None:
    """The page's own scripts: the wasm is compiled in workers only (validation is not compilation)."""
    for name in ("app.js", "start.js", local_engine.BUNDLE):
        text = (DIST / name).read_text()
        for call in ("WebAssembly.instantiate", "WebAssembly.compile", "new WebAssembly.Module"):
            assert call not in text, f"{name} has {call}"
    assert "createWorker(completeCode)" not in (DIST / local_engine.BUNDLE).read_text()
    for name in local_engine.WORKERS:
        assert "WebAssembly.instantiate" in (DIST / name).read_text()
