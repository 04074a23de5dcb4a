// The engine of the model in the page: wllama (llama.cpp built to WebAssembly), which runs in a worker of
// its own. Bundled apart (dist/local-engine.js) and imported only when the user chooses a model in this
// browser, with its wasm (dist/local-model/wllama.wasm; buildsys/local_engine.py).
// One thread: the page is not cross-origin isolated (no SharedArrayBuffer to share with pthreads).
import { CacheManager, Wllama } from "@wllama/wllama";
import { engineRequest, SSE_DONE, sseEvents } from "./wire.js";

/** @import { ResultTimings } from "@wllama/wllama" */
/** @import { AgentBody } from "./wire.js" */

const WASM = new URL("./local-model/wllama.wasm", import.meta.url).href;
// The build for engines without JSPI or Memory64 (WebKit): wllama chooses it itself, Firefox excepted.
const COMPAT = {
  wasm: new URL("./local-model/compat/wllama.wasm", import.meta.url).href,
  worker: new URL("./local-model/compat/wllama.js", import.meta.url).href,
};
const MAX_CONTEXT = 8192; // tokens: the KV cache of a larger window costs memory a tab may not have
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

/** Load `blob` (a GGUF file) into a new engine. `contextLength` is the model's own window (its header).
 * @param {Blob} blob @param {number} contextLength */
export async function startEngine(blob, contextLength) {
  const cacheManager = new CacheManager([new NoStorage()]);
  const wllama = new Wllama({ default: WASM }, { logger: quiet, allowOffline: true, cacheManager });
  wllama.setCompat(COMPAT); // ours, never the compat build from another host
  const n_ctx = Math.min(contextLength || 4096, MAX_CONTEXT);
  await wllama.loadModel([blob], { n_threads: 1, n_ctx, n_batch: 512 });
  return new LocalEngine(wllama, wllama.getLoadedContextInfo().n_ctx);
}

export class LocalEngine {
  /** @param {Wllama} wllama @param {number} contextSize the window the engine was started with (tokens) */
  constructor(wllama, contextSize) {
    this.wllama = wllama;
    this.contextSize = contextSize;
    /** @type {ResultTimings | null} */
    this.lastTimings = null; // the last answer's, for the live speed figure and the benchmarks
  }

  /** Stream one chat request: `write(text)` gets server-sent events; resolves when the answer ends or
   * `signal` stops it.
   * @param {AgentBody} body @param {string} model @param {AbortSignal} signal @param {(text: string) => void} write */
  async chat(body, model, signal, write) {
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
