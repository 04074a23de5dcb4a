// The page's side of the execution layer (docs/execution.md): runs model-written code (JS, shell,
// Python) in a Worker inside an iframe with sandbox="allow-scripts" (an opaque origin), never on the
// page's origin and never on the page's thread.
//
// One realm per runtime ("js" for browser_js_eval; "shell" for shell_exec and Python), made on first
// use; each is a FrameTransport (frame + port + watchdog, frame-transport.js). The frame gets a port
// and its runtime as text; it has no network (see web/sandbox/frame.html), so every runtime file it
// needs comes from here, and only from a fixed list. A watchdog removes a frame whose run overstays
// its time; the next run builds a new one.
import { realms } from "../../generated/sandbox-realms.json";
import shared from "../../limits.json";
import { FrameTransport, SandboxError } from "./frame-transport.js";
import { sha256Hex } from "../../bytes.js";

/** @import { EvalResult, ProcessResult } from "../../frames/common/sandbox-messages.js" */

/**
 * @typedef {object} SandboxHostOptions
 * @property {string | URL} [baseUrl]
 * @property {Element | null} [container] where the frames go (default: the document's body)
 * @property {number} [bootTimeoutMs]
 * @property {number} [startAllowanceMs]
 * @property {boolean} [pythonDeadline]
 */

export { SandboxError };

/**
 * kind -> the realm (frame) it runs in: the agent's own table (agentlite.page_jobs.REALM_OF), generated.
 * @type {Readonly<Record<string, string | undefined>>}
 */
const REALM_OF = realms;
/** @type {Readonly<Record<string, string>>} */
const RUNTIME_OF = { js: "js-runtime.js", shell: "shell-runtime.js" };
const PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"];
const LOCK_FILE = "agentlite-lock.json";
const DEFAULT_TIMEOUT_MS = 30_000;

export class SandboxHost {
  // baseUrl: the folder of dist/ (holds sandbox/ and pyodide/). bootTimeoutMs bounds a frame's start;
  // startAllowanceMs bounds the start of a heavy runtime (Pyodide) inside a run, which is not counted
  // against the run's own time (once per frame). The agent waits both out (limits.json).
  /** @param {SandboxHostOptions} [options] */
  constructor({
    baseUrl = new URL("./", import.meta.url),
    container = null,
    bootTimeoutMs = shared.sandbox.boot_timeout_ms,
    startAllowanceMs = shared.sandbox.start_allowance_ms,
    pythonDeadline = cannotEndWasmWorkers(),
  } = {}) {
    this.baseUrl = new URL(baseUrl);
    this.container = container;
    this.options = { bootTimeoutMs, startAllowanceMs, pythonDeadline };
    /** @type {Map<string, FrameTransport>} realm name -> its latest FrameTransport (dead after a timeout until the next run) */
    this.realms = new Map();
    /** @type {Map<string, Promise<unknown>>} realm name -> tail promise: runs in one realm never overlap */
    this.queues = new Map();
    /** @type {Map<string, Promise<string>>} runtime file -> its text */
    this.runtimeText = new Map();
    /** @type {Promise<Map<string, string | null>> | null} name -> sha256 | null: the files a frame may ask for */
    this.allowed = null;
    this.nextId = 1;
  }

  /**
   * Run model-written code; resolves with the kind's result, rejects with a SandboxError.
   * @param {string} kind
   * @param {Record<string, unknown>} [payload]
   * @param {number} [timeoutMs]
   * @returns {Promise<EvalResult | ProcessResult>}
   */
  run(kind, payload = {}, timeoutMs = DEFAULT_TIMEOUT_MS) {
    const realm = REALM_OF[kind];
    if (!realm) return Promise.reject(new SandboxError("bad_request", `unknown sandbox kind: ${kind}`));
    const limit = Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS;
    const previous = this.queues.get(realm) || Promise.resolve();
    const job = previous.then(() => this.runNow(realm, kind, payload, limit));
    this.queues.set(
      realm,
      job.catch(() => {}),
    );
    return job;
  }

  /**
   * @param {string} realmName
   * @param {string} kind
   * @param {Record<string, unknown>} payload
   * @param {number} timeoutMs
   */
  async runNow(realmName, kind, payload, timeoutMs) {
    let realm = this.realms.get(realmName);
    if (!realm || realm.dead) {
      realm = new FrameTransport(this, realmName, RUNTIME_OF[realmName]);
      this.realms.set(realmName, realm);
    }
    await realm.booted;
    return realm.exec(this.nextId++, kind, payload, timeoutMs);
  }

  /**
   * The frame element of a realm, if one is alive (tests look at its attributes).
   * @param {string} realmName
   */
  frame(realmName) {
    const realm = this.realms.get(realmName);
    return realm && !realm.dead ? realm.iframe : null;
  }

  dispose() {
    const error = new SandboxError("unavailable", "sandbox disposed");
    for (const realm of this.realms.values()) realm.destroy(error);
    this.realms.clear();
  }

  /** @param {string} path */
  url(path) {
    return new URL(path, this.baseUrl).href;
  }

  /**
   * @param {string} name
   * @returns {Promise<string>}
   */
  runtime(name) {
    if (!this.runtimeText.has(name)) {
      const text = fetchOk(this.url(`sandbox/${name}`)).then((response) => response.text());
      text.catch(() => this.runtimeText.delete(name)); // a failed fetch is retried next time
      this.runtimeText.set(name, text);
    }
    return /** @type {Promise<string>} */ (this.runtimeText.get(name));
  }

  // The bytes of one runtime file a frame asked for, only if it is on the list: the Pyodide core,
  // the lock file, and the wheels the lock names. The frame chooses among these names, nothing else.
  // Wheels are checked against the lock's sha256 before they are handed over.
  /**
   * @param {unknown} name
   * @returns {Promise<ArrayBuffer>}
   */
  async asset(name) {
    if (!this.allowed) {
      this.allowed = fetchOk(this.url(`pyodide/${LOCK_FILE}`))
        .then((response) => response.json())
        .then(allowedAssets);
      this.allowed.catch(() => (this.allowed = null));
    }
    const allowed = await this.allowed;
    if (typeof name !== "string" || !/^[\w.+-]+$/.test(name) || !allowed.has(name)) {
      throw new Error(`not a runtime file: ${String(name).slice(0, 100)}`);
    }
    const bytes = await (await fetchOk(this.url(`pyodide/${name}`))).arrayBuffer();
    const expected = allowed.get(name);
    if (expected && globalThis.crypto?.subtle && (await sha256Hex(bytes)) !== expected) {
      throw new Error(`${name}: sha256 does not match the lock file`);
    }
    return bytes;
  }
}

// WebKit (Safari, WebKitGTK) does not end a Worker spinning inside WebAssembly when its frame is
// removed (docs/execution.md, "The watchdog"): there Python stops itself at a deadline of its own, which
// slows tight loops, so only there. Told apart by user agent: the page decides and passes it on as
// `python_deadline` with each run (the frame's Worker sees the same user agent, but tests can force it).
export function cannotEndWasmWorkers(userAgent = globalThis.navigator?.userAgent || "") {
  return /AppleWebKit/.test(userAgent) && !/Chrome|Chromium|Firefox|Edg\//.test(userAgent);
}

/**
 * name -> expected sha256 (null for the core files, which Pyodide's own start-up checks by version).
 * @param {{packages?: Record<string, {file_name?: unknown, sha256?: string} | null>}} lock
 */
function allowedAssets(lock) {
  /** @type {Map<string, string | null>} */
  const allowed = new Map([...PYODIDE_CORE, LOCK_FILE].map((name) => [name, null]));
  for (const pkg of Object.values(lock.packages || {})) {
    if (pkg && typeof pkg.file_name === "string") allowed.set(pkg.file_name, pkg.sha256 || null);
  }
  return allowed;
}

/** @param {string} url */
async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}
