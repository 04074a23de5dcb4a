// The engine of the model in the page: wllama (llama.cpp built to WebAssembly), which runs in a worker of
// its own. Bundled apart (dist/local-engine.js) and imported only when the user chooses a model in this
// browser, with its wasm (dist/local-model/wllama.wasm; buildsys/engine/local_engine.py).
// One thread: the page is not cross-origin isolated (no SharedArrayBuffer to share with pthreads).
import { CacheManager, Wllama } from "@wllama/wllama";
import { hasRelaxedSimd } from "./wasm-features.js";
import { engineRequest, SSE_DONE, sseEvents } from "./wire.js";

export { hasRelaxedSimd };

/** @import { ResultTimings } from "@wllama/wllama" */
/** @import { AgentBody, EngineRequest } from "./wire.js" */

// The default build (Memory64, JSPI), with the build's relaxed-SIMD kernels or, without relaxed SIMD,
// its plain-SIMD copy (buildsys/engine/local_engine.py).
const WASM = new URL("./local-model/wllama.wasm", import.meta.url).href;
const WASM_SIMD128 = new URL("./local-model/simd128/wllama.wasm", import.meta.url).href;
// The build for engines without JSPI or Memory64 (WebKit): wllama chooses it itself, Firefox excepted.
// Each build's worker is a file of this origin, not wllama's blob: worker (buildsys/engine/local_worker.py): it
// compiles the wasm under its own policy, and the page's allows neither blob: workers nor wasm compilation.
const WORKER = new URL("./local-model/wllama-worker.js", import.meta.url).href;
const COMPAT = {
  wasm: new URL("./local-model/compat/wllama.wasm", import.meta.url).href,
  worker: new URL("./local-model/compat/wllama-worker.js", import.meta.url).href,
};
const MAX_CONTEXT = 8192; // tokens: the KV cache of a larger window costs memory a tab may not have
// The KV cache in 8-bit blocks rather than 16-bit floats: half the memory, and in the wasm build the
// faster one, read with the SIMD q8_0 kernel (buildsys/engine/kernels/quant_dot.c) where 16-bit floats are
// converted one at a time. SmolLM2-135M, one thread, before the relaxed kernels: 37.9 tokens/s written
// against 31.9 (36.9 against 24.0 300 tokens into an answer), the prompt read at 48 against 50
// (docs/local-model.md, "What the engine changes").
/** @type {{cache_type_k: "q8_0", cache_type_v: "q8_0"}} */
const KV_CACHE = { cache_type_k: "q8_0", cache_type_v: "q8_0" };
/** @type {import("@wllama/wllama").WllamaLogger} */
const quiet = { debug() {}, log() {}, warn: console.warn, error: console.error };

/** The storage wllama would keep downloaded models in: none, since the page keeps its model itself
 * (store.js). wllama's default needs OPFS, which an engine may lack (WebKitGTK): then it refused to start. */
class NoStorage {
  isSupported() {
    return true;
  }
  async read() {
    return null;
  }
  async write() {
    throw new Error("the page keeps the model itself");
  }
  async getSize() {
    return -1;
  }
  async list() {
    return [];
  }
  async delete() {}
}

/** wllama with its default build's worker from its file (the compat build's is set by `setCompat`). */
class PageWllama extends Wllama {
  getWorkerResources() {
    const resources = super.getWorkerResources();
    return resources.compat ? resources : { ...resources, jsPath: WORKER };
  }
}

/** Load `blob` (a GGUF file) into a new engine. `contextLength` is the model's own window (its header).
 * @param {Blob} blob @param {number} contextLength */
export async function startEngine(blob, contextLength) {
  const cacheManager = new CacheManager([new NoStorage()]);
  const wasm = hasRelaxedSimd() ? WASM : WASM_SIMD128;
  const wllama = new PageWllama({ default: wasm }, { logger: quiet, allowOffline: true, cacheManager });
  wllama.setCompat(COMPAT); // ours, never the compat build from another host
  const n_ctx = Math.min(contextLength || 4096, MAX_CONTEXT);
  await wllama.loadModel([blob], { n_threads: 1, n_ctx, n_batch: 512, ...KV_CACHE });
  const engine = new LocalEngine(wllama, wllama.getLoadedContextInfo().n_ctx);
  engine.warming = engine.warmUp();
  return engine;
}

// A throwaway request run once the model is loaded (docs/local-model.md, "What the engine changes").
// The browser compiles wasm code first with a quick baseline compiler and optimises a function only after
// it has run for a while, and a running call never switches: the engine's graph loop is one call per
// batch of up to 512 tokens, so the first prompt was read mostly by unoptimised code (32 tokens/s against
// 49 once optimised). A short prompt runs that loop long enough for the browser to optimise it.
/** @type {EngineRequest} */
const WARM_UP = { messages: [{ role: "user", content: "Hi" }], max_tokens: 1, temperature: 0, stream: true };

export class LocalEngine {
  /** @param {Wllama} wllama @param {number} contextSize the window the engine was started with (tokens) */
  constructor(wllama, contextSize) {
    this.wllama = wllama;
    this.contextSize = contextSize;
    /** @type {ResultTimings | null} */
    this.lastTimings = null; // the last answer's, for the live speed figure and the benchmarks
    /** @type {Promise<void>} */
    this.warming = Promise.resolve(); // the warm-up; a request waits for it
  }

  /** Run the warm-up request; its answer is dropped, and a failure is left to the first real request. */
  async warmUp() {
    try {
      const stream = await this.wllama.createChatCompletion(WARM_UP);
      for await (const _chunk of stream);
    } catch (error) {
      console.warn("local model: the warm-up request failed", error);
    }
  }

  /** Stream one chat request: `write(text)` gets server-sent events; resolves when the answer ends or
   * `signal` stops it.
   * @param {AgentBody} body @param {string} model @param {AbortSignal} signal @param {(text: string) => void} write */
  async chat(body, model, signal, write) {
    await this.warming;
    if (signal.aborted) return;
    this.lastTimings = null;
    const stream = await this.wllama.createChatCompletion({ ...engineRequest(body), abortSignal: signal });
    for await (const chunk of stream) {
      if (signal.aborted) break;
      if (chunk.timings) this.lastTimings = chunk.timings;
      write(sseEvents(chunk, model));
    }
    if (!signal.aborted) write(SSE_DONE);
  }

  async exit() {
    await this.wllama.exit();
  }
}
