"""The PDF frame document (web/sandbox/pdf.html, docs/pdf.md): its CSP allows the inline bootstrap by hash,
blob: scripts and workers the frame makes, and nothing else: no network, no origin, no code from strings."""

from __future__ import annotations

import base64
import hashlib
import re

from buildsys.common import ROOT

FRAME = ROOT / "web" / "sandbox" / "pdf.html"


def policy() -> dict[str, list[str]]:
    html = FRAME.read_text()
    content = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert content, "pdf.html has no CSP meta tag"
    directives = [d.split() for d in content.group(1).split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def test_the_csp_hash_matches_the_inline_bootstrap() -> None:
    scripts = re.findall(r"<script>(.*?)</script>", FRAME.read_text(), re.DOTALL)
    assert len(scripts) == 1, "exactly one inline script: the bootstrap"
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy()["script-src"], "update the hash in pdf.html's CSP"


def test_the_csp_allows_no_network_no_origin_and_no_code_from_strings() -> None:
    csp = policy()
    assert csp["default-src"] == ["'none'"]  # connect, img, font, style, media, frame: none
    assert set(csp) == {"default-src", "script-src", "worker-src", "base-uri", "form-action"}
    assert csp["worker-src"] == ["blob:"], "the parser's worker comes from a blob: URL the frame made"
    assert [s for s in csp["script-src"] if not s.startswith("'sha256-")] == ["blob:"]
    words = " ".join(v for values in csp.values() for v in values)
    for allowed in ("'self'", "'unsafe-eval'", "'wasm-unsafe-eval'", "'unsafe-inline'", "data:", "*"):
        assert allowed not in words.split()


def test_the_bootstrap_starts_nothing_outside_an_opaque_origin() -> None:
    script = re.findall(r"<script>(.*?)</script>", FRAME.read_text(), re.DOTALL)[0]
    assert 'if (self.origin !== "null") return fail(' in script
    assert "event.source !== parent" in script and "event.ports.length !== 1" in script


def test_offline_the_service_worker_sandboxes_the_frame_by_header() -> None:
    worker = (ROOT / "web" / "service-worker.js").read_text()
    frames = re.search(r"const FRAMES = new Set\(\[([^\]]*)\]\)", worker)
    assert frames and '"sandbox/pdf.html"' in frames.group(1)
