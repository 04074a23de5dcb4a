"""The preview frame document (web/sandbox/preview.html): a small bootstrap that runs the frame's runtime
from the text the app hands it, under a CSP that lets nothing leave the browser.

Its CSP cannot name the bootstrap by hash as frame.html's does: 'unsafe-inline' runs the page's own inline
scripts, and a hash source beside it would turn it off. So the bootstrap's hash is kept here instead: a
change to it is a change to this test, made on purpose."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
PREVIEW = WEB / "sandbox" / "preview.html"
SANDBOX = WEB / "sandbox" / "frame.html"
BOOTSTRAP_SHA256 = "iGJk40KKHuT/6QmK+V1/rmViLiBeIML0cJsJqq6U9jc="
POLICY = (
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data:;"
    " style-src 'unsafe-inline' blob: data:; img-src blob: data:; font-src blob: data:;"
    " media-src blob: data:; connect-src blob: data:; worker-src blob:; frame-src 'none'; child-src 'none';"
    " base-uri 'none'; form-action 'none'; require-trusted-types-for 'script';"
    " trusted-types default agentlite-preview"
)


def inline_scripts(path: Path) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", path.read_text(), re.DOTALL)


def test_the_bootstrap_is_one_small_inline_script_kept_in_step_by_its_hash() -> None:
    scripts = inline_scripts(PREVIEW)
    assert len(scripts) == 1, "exactly one inline script: the bootstrap"
    assert len(scripts[0]) <= len(inline_scripts(SANDBOX)[0]), "no longer than the sandbox frame's bootstrap"
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert digest == BOOTSTRAP_SHA256, "the bootstrap changed: review it, then update BOOTSTRAP_SHA256"


def test_the_bootstrap_fetches_nothing_and_runs_only_in_an_opaque_origin() -> None:
    script = inline_scripts(PREVIEW)[0]
    assert 'self.origin !== "null"' in script
    assert "event.source !== parent" in script
    for network in ("fetch(", "XMLHttpRequest", "import(", "importScripts", "http", "location"):
        assert network not in script
    handed = 'var url = URL.createObjectURL(new Blob([data.runtime], { type: "text/javascript" }));'
    assert handed in script, "the runtime is the text the app handed over"
    assert script.count(".src") == 1 and "script.src = policy ? policy.createScriptURL(url) : url;" in script


def test_the_policy_is_unchanged() -> None:
    content = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', PREVIEW.read_text())
    assert content, "preview.html has no CSP meta tag"
    assert content.group(1) == POLICY
