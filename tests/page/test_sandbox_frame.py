"""The sandbox frame document: its CSP allows the inline bootstrap by hash and nothing by origin."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

FRAME = Path(__file__).resolve().parents[2] / "web" / "sandbox" / "frame.html"


def policy() -> dict[str, list[str]]:
    html = FRAME.read_text()
    content = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert content, "frame.html has no CSP meta tag"
    directives = [d.split() for d in content.group(1).split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def test_the_csp_hash_matches_the_inline_bootstrap() -> None:
    html = FRAME.read_text()
    scripts = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(scripts) == 1, "exactly one inline script: the bootstrap"
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy()["script-src"], "update the hash in frame.html's CSP"


def test_the_csp_allows_no_network_and_no_origin() -> None:
    csp = policy()
    assert csp["default-src"] == ["'none'"]
    assert set(csp) == {"default-src", "script-src", "worker-src", "base-uri", "form-action"}
    assert csp["worker-src"] == ["blob:"], "the runtime's worker comes from a blob: URL the frame made"
    script = [s for s in csp["script-src"] if not s.startswith("'sha256-")]
    assert sorted(script) == sorted(["blob:", "'unsafe-eval'", "'wasm-unsafe-eval'"])
    assert "'self'" not in " ".join(v for values in csp.values() for v in values)
