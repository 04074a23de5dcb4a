"""The preview's resolution of what a page asks for at run time (docs/preview.md, "What resolves"), in
Node: `import.meta` and computed `import()` against the module's own workspace path, every script a
module once a computed import() may name it, and the frame's `targetOf` (web/src/frames/common/
workspace-url.js, imported as the frame's runtime imports it) for fetch, XMLHttpRequest, element URLs and
workers."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from buildsys.common import ROOT

RUNNER = ROOT / "tests" / "page" / "preview_resolve.mjs"
PREVIEW = ROOT / "web" / "src" / "preview" / "page"
RESOLVER = ROOT / "web" / "src" / "frames" / "common" / "workspace-url.js"


@pytest.fixture(scope="module")
def out() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "es-module-lexer").exists():
        pytest.fail("node and web/node_modules are needed: run `python build.py`")
    args = [node, str(RUNNER), str(PREVIEW), RESOLVER.as_uri()]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT / "web", check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_import_meta_reads_as_the_modules_workspace_key(out: dict[str, Any]) -> None:
    assert out["metaUrl"] == "agentlite-ws:/src/app/main.js"
    assert out["nextToMeta"] == "agentlite-ws:/src/app/data.json"
    assert out["upFromMeta"] == "agentlite-ws:/pics/a.png"
    assert out["resolveRelative"] == "agentlite-ws:/src/app/x.js"
    assert out["resolveBare"] == "react"


def test_a_computed_import_resolves_paths_against_the_module(out: dict[str, Any]) -> None:
    assert out["computedRelative"] == "agentlite-ws:/src/app/lazy.js"
    assert out["computedUp"] == "agentlite-ws:/src/lazy.js"
    assert out["computedAbsolute"] == "agentlite-ws:/lib/lazy.js"
    assert out["computedBare"] == "preact"  # left to the import map
    assert out["computedUrl"] == "agentlite-ws:/a/x.js"


def test_rewriting_keeps_lines_and_touches_import_meta_only_in_the_preview(out: dict[str, Any]) -> None:
    assert out["withMetaLines"] is True
    assert "import a from agentlite-ws:/src/app/dep.js;" not in out["withMeta"]
    assert 'from "agentlite-ws:/src/app/dep.js"' in out["withMeta"]
    assert "import.meta" not in out["withMeta"]
    assert '{url:"agentlite-ws:/src/app/main.js"' in out["withMeta"]
    assert out["computedCount"] == 3
    # The rewritten code runs (import() stubbed): nested import.meta and imports inside a computed one.
    assert out["evaluated"] == [
        "agentlite-ws:/src/app/lazy",
        "agentlite-ws:/src/app/dep.js29",
        "agentlite-ws:/src/app/dep.js",
        "[object Promise]",
    ]
    assert "import.meta.url" in out["withoutMeta"]  # browser_js_eval's modules: as written
    assert 'import("./" + name)' in out["withoutMeta"]
    assert out["vendor"] == "const u = import.meta.url;"


def test_a_computed_import_makes_every_script_a_module(out: dict[str, Any]) -> None:
    assert out["bundleModules"] == [
        "agentlite-ws:/src/app/dep.js",
        "agentlite-ws:/src/app/lazy.js",
        "agentlite-ws:/src/app/main.js",
        "agentlite-ws:/src/unused.js",
    ]
    assert 'from "agentlite-ws:/src/app/dep.js"' in out["lazyCode"]  # its own imports resolved
    assert '{url:"agentlite-ws:/index.html"' in out["entryHtml"]  # an inline module's import.meta
    assert out["noComputedModules"] == ["agentlite-ws:/src/app/dep.js"]


def test_the_frame_sends_workspace_urls_to_files_and_the_rest_to_the_network(out: dict[str, Any]) -> None:
    targets = out["targets"]
    assert targets["data/x.json"] == {"path": "/pages/data/x.json"}  # against the page, as a browser does
    assert targets["/data/x.json"] == {"path": "/data/x.json"}
    assert targets["../top.json"] == {"path": "/top.json"}
    assert targets["agentlite-ws:/src/a%20b.json"] == {"path": "/src/a b.json"}
    assert targets["blob:null/1234"] == {"local": "blob:null/1234"}
    assert targets["data:,hi"] == {"local": "data:,hi"}
    assert targets["https://example.com/x"] == {"network": "https://example.com/x"}
    # The frame's own address stands for the entry's folder; its server's other paths for themselves.
    assert targets["http://127.0.0.1:8000/app/sandbox/data/x.json"] == {"path": "/pages/data/x.json"}
    assert targets["http://127.0.0.1:8000/other/y.json"] == {"path": "/other/y.json"}
    assert targets["http://127.0.0.1:9999/z.json"] == {"network": "http://127.0.0.1:9999/z.json"}
    assert targets["http://[bad"] == {"bad": True}


def test_the_app_resolves_page_references_with_the_same_module(out: dict[str, Any]) -> None:
    assert out["paths"] == {
        "img/a.png": "/pages/img/a.png",
        "/img/a.png": "/img/a.png",
        "../a.png": "/a.png",
        "a%20b.png": "/pages/a b.png",
        "//cdn.example/x.js": None,
        "https://x/y": None,
        "#top": None,
        " ": None,
    }


def test_the_resolver_is_pure() -> None:
    """One module for the page and the frame: it reads no global of a document or a Worker."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", RESOLVER.read_text(), flags=re.DOTALL)
    for name in ("document", "window", "location", "self.", "navigator", "postMessage"):
        assert name not in code, name
