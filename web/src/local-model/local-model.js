// The model in the page: its state (none, loading, ready, error), its facts, its stored file and its
// engine. The file is copied into this origin's storage first (store.js), then the engine reads it from
// there, so a later visit starts from the stored copy. The engine's bundle and wasm are fetched only here,
// on first use (`import` of dist/local-engine.js).
import { GgufError } from "./gguf-header.js";
import { canStore, memoryCopy, removeModel, storedModel, storeModel, writeFacts } from "./store.js";

/** @import { LocalEngine } from "./engine.js" */
/** @import { ModelFacts } from "./gguf-header.js" */
/** @typedef {"none" | "loading" | "ready" | "error"} LocalState */
/** Hears every change of state (and of its detail): given the LocalModel itself.
 * @typedef {(local: LocalModel) => void} LocalListener */
/** What the header's worker answers. @typedef {{facts?: ModelFacts, error?: string, gguf?: boolean}} HeaderAnswer */

const ENGINE_URL = "./local-engine.js"; // beside the page's bundle
export const NOT_KEPT = "This browser cannot keep the model between visits: choose it again next time.";

/** The facts of a GGUF file from its header, read in a worker of its own (gguf-worker.js), never on the
 * page's thread; rejects with GgufError for a file that is not a model the page can run.
 * @param {Blob} blob @param {string} fileName @returns {Promise<ModelFacts>} */
export function factsOf(blob, fileName) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./gguf-worker.js", import.meta.url), { type: "module", name: "gguf" });
    worker.onmessage = (/** @type {MessageEvent<HeaderAnswer>} */ { data }) => {
      worker.terminate();
      if (data.facts) resolve(data.facts);
      else reject(data.gguf ? new GgufError(data.error) : new Error(data.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new Error("the model's header could not be read"));
    };
    worker.postMessage({ blob, name: fileName });
  });
}

export class LocalModel {
  constructor() {
    /** @type {LocalState} */
    this.state = "none";
    /** @type {ModelFacts | null} */
    this.facts = null; // {name, architecture, parameters, quantisation, contextLength, chatTemplate, tools, size}
    /** @type {LocalEngine | null} */
    this.engine = null;
    this.detail = ""; // what the state view says: progress, the error, the speed
    /** @type {LocalListener[]} */
    this.listeners = [];
  }

  /** @param {LocalListener} listener */
  on(listener) {
    this.listeners.push(listener);
  }

  /** @param {LocalState} state @param {string} [detail] */
  set(state, detail = "") {
    Object.assign(this, { state, detail });
    for (const listener of this.listeners) listener(this);
  }

  /** A stored model from an earlier visit: shown, and started when `start` says it is the chosen model.
   * @param {boolean} start */
  async restore(start) {
    const stored = await storedModel();
    if (!stored) return false;
    this.facts = stored.facts;
    this.set("none", "stored in this browser");
    if (start) await this.start(stored.file);
    return true;
  }

  /** @param {File} file */
  async fromFile(file) {
    await this.guard(async () => {
      this.set("loading", "Reading the model's header");
      const facts = await factsOf(file, file.name);
      if (canStore()) return this.keep(file.stream(), file.size, facts);
      await this.startUnkept(file, facts); // the File itself: no copy in memory
    });
  }

  /** A model at a URL (this origin's, or another that allows it by CORS and the page's connect-src).
   * @param {string} url */
  async fromUrl(url) {
    await this.guard(async () => {
      const response = await fetch(url);
      if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
      const total = Number(response.headers.get("Content-Length")) || 0;
      const name = new URL(url, location.href).pathname.split("/").pop() || "model.gguf";
      await this.keep(response.body, total, null, name);
    });
  }

  /** Store `source` (`total` bytes, 0 when unknown), then start it; `facts` null: read from the stored file.
   * @param {ReadableStream<Uint8Array<ArrayBuffer>>} source @param {number} total
   * @param {ModelFacts | null} facts @param {string} [name] */
  async keep(source, total, facts, name = "") {
    if (this.engine) await this.unload();
    const megabytes = (/** @type {number} */ n) => (n / 1e6).toFixed(1);
    const stored = canStore();
    const verb = stored ? "Storing" : "Reading";
    const progress = (/** @type {number} */ bytes) =>
      this.set("loading", `${verb} the model: ${megabytes(bytes)}${total ? ` of ${megabytes(total)}` : ""} MB`);
    if (!stored) return this.startUnkept(await memoryCopy(source, progress), facts, name);
    const file = await storeModel(source, progress);
    /** @type {ModelFacts} */
    const known = facts || (await factsOf(file, name).catch(async (err) => Promise.reject(await dropped(err))));
    this.facts = { ...known, size: file.size };
    await writeFacts(this.facts);
    await this.start(file);
  }

  /** Start a model this browser cannot store (no writable OPFS): for this visit only.
   * @param {Blob} blob @param {ModelFacts | null} facts @param {string} [name] */
  async startUnkept(blob, facts, name = "") {
    if (this.engine) await this.unload();
    this.facts = { ...(facts || (await factsOf(blob, name))), size: blob.size };
    await this.start(blob);
    this.set("ready", NOT_KEPT);
  }

  /** @param {Blob} file */
  async start(file) {
    this.set("loading", "Starting the engine");
    /** @type {typeof import("./engine.js")} */
    const { startEngine } = await import(/* @vite-ignore */ new URL(ENGINE_URL, document.baseURI).href);
    this.engine = await startEngine(file, /** @type {ModelFacts} */ (this.facts).contextLength); // set before start
    this.set("ready", "");
  }

  /** @param {() => Promise<void>} work */
  async guard(work) {
    try {
      await work();
    } catch (err) {
      console.warn("agentlite: local model", err);
      this.set("error", describe(err));
    }
  }

  async unload() {
    const engine = this.engine;
    this.engine = null;
    await engine?.exit().catch(() => {});
  }

  async remove() {
    await this.unload();
    await removeModel();
    this.facts = null;
    this.set("none", "");
  }
}

/** @param {unknown} err */
async function dropped(err) {
  await removeModel();
  return err;
}

/** A failure in words the user can act on.
 * @param {unknown} err */
export function describe(err) {
  const text = String(/** @type {Error | undefined} */ (err)?.message || err);
  if (err instanceof GgufError) return `This file is not a model the page can run: ${text}.`;
  if (/memory|allocate/i.test(text)) return "The model does not fit in this tab's memory: choose a smaller one.";
  if (/quota/i.test(text))
    return "The browser's storage for this site is full: free some space or choose a smaller model.";
  return `The model could not be loaded: ${text}`;
}
