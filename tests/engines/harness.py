"""The pages the engine suite serves beside dist/: a sandbox harness that drives the SandboxHost directly
(a frame-per-runtime page with a paint counter), at the app's own origin like tests/e2e/test_sandbox.py;
and the test model's GGUF file (never part of dist/), for the model in the page to load from a URL."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from buildsys.build.serve import ExtrasHandler
from buildsys.testing import llama_server

HARNESS = "/__engine_harness.html"
# SmolLM2-135M-Instruct from the pinned wheel (buildsys/testing/llama_server.py)
MODEL_PATH = "/__test_model.gguf"
GUARD_MS = 150_000  # a page-side bound on each run, so no probe waits forever

HTML = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>engine harness</title></head>
<body>
<script type="module">
import {{ SandboxHost }} from "./sandbox-host.js";
window.host = new SandboxHost();
window.ticks = 0;
(function tick() {{ window.ticks++; requestAnimationFrame(tick); }})();
window.runs = {{}};
// Start a run and keep its outcome under a name (a probe never waits on a run that may freeze).
window.startRun = (name, kind, payload, timeoutMs) => {{
  window.runs[name] = null;
  const guard = new Promise((resolve) =>
    setTimeout(() => resolve({{ ok: false, type: "harness_guard", message: "no answer" }}), {GUARD_MS}));
  const run = window.host.run(kind, payload, timeoutMs).then(
    (result) => ({{ ok: true, result }}),
    (err) => ({{ ok: false, name: err.name, type: err.type, message: err.message }}));
  Promise.race([run, guard]).then((outcome) => {{ window.runs[name] = outcome; }});
  return true;
}};
window.harnessReady = true;
</script>
</body></html>
"""


class HarnessHandler(ExtrasHandler):
    """dist/ as the app serves it, plus the harness page and the test model."""

    pages: ClassVar[dict[str, bytes]] = {HARNESS: HTML.encode()}
    files: ClassVar[dict[str, Path]] = {MODEL_PATH: llama_server.MODEL}
