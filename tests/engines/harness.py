"""The pages the engine suite serves beside dist/: a sandbox harness that drives the SandboxHost directly
(a frame-per-runtime page with a paint counter), at the app's own origin like tests/e2e/test_sandbox.py;
and the test model's GGUF file (never part of dist/), for the model in the page to load from a URL."""

from __future__ import annotations

from typing import ClassVar

from buildsys import llama_server
from buildsys.serve import Handler

HARNESS = "/__engine_harness.html"
MODEL_PATH = "/__test_model.gguf"  # SmolLM2-135M-Instruct from the pinned wheel (buildsys/llama_server.py)
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


class HarnessHandler(Handler):
    """dist/ as the app serves it, plus the harness page."""

    pages: ClassVar[dict[str, bytes]] = {HARNESS: HTML.encode()}

    def translate_path(self, path: str) -> str:
        if path.split("?", 1)[0] == MODEL_PATH:
            return str(llama_server.MODEL)
        return super().translate_path(path)

    def do_GET(self) -> None:
        body = self.pages.get(self.path.split("?", 1)[0])
        if body is None:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
