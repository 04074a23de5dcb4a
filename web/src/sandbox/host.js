// The page's side of the sandbox: runs model-written code (JS, shell, Python) in iframes with
// sandbox="allow-scripts" (an opaque origin in its own process), never on the page's origin.
//
// One frame per realm ("js" for browser_js_eval; "shell" for shell_exec and Python), made on first
// use. The frame gets a MessageChannel port and its runtime as text; it has no network (see
// web/sandbox/frame.html), so every runtime file it needs comes from here, and only from a fixed list.
// A watchdog removes a frame whose run overstays its time; the next run builds a new one.
import shared from "../limits.json";
import { InvalidResult, checkResult } from "./results.js";

const REALM_OF = { js: "js", shell: "shell", python: "shell" };
const RUNTIME_OF = { js: "js-runtime.js", shell: "shell-runtime.js" };
const PYODIDE_CORE = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"];
const LOCK_NAME = "agentlite-lock.json";
const DEFAULT_TIMEOUT_MS = 30_000;

// `type`: "timeout" (the run overstayed; the frame was removed), "unavailable" (the frame could not
// start), "invalid" (the frame's answer broke the rules), "failed" (the runtime reported a failure),
// "bad_request" (unknown kind or a payload that cannot be sent).
export class SandboxError extends Error {
  constructor(type, message) {
    super(message);
    this.name = "SandboxError";
    this.type = type;
  }
}

export class SandboxHost {
  // baseUrl: the folder of dist/ (holds sandbox/ and pyodide/). bootTimeoutMs bounds a frame's start;
  // startAllowanceMs bounds the start of a heavy runtime (Pyodide) inside a run, which is not counted
  // against the run's own time (once per frame). The agent waits both out (limits.json).
  constructor({
    baseUrl = new URL("./", import.meta.url),
    container = null,
    bootTimeoutMs = shared.sandbox.boot_timeout_ms,
    startAllowanceMs = shared.sandbox.start_allowance_ms,
  } = {}) {
    this.baseUrl = new URL(baseUrl);
    this.container = container;
    this.options = { bootTimeoutMs, startAllowanceMs };
    this.realms = new Map(); // realm name -> its latest Realm (dead after a timeout until the next run)
    this.queues = new Map(); // realm name -> tail promise: runs in one realm never overlap
    this.runtimeText = new Map(); // runtime file -> Promise<string>
    this.allowed = null; // Promise<Map<name, sha256 | null>>: the files a frame may ask for
    this.nextId = 1;
  }

  // Run model-written code; resolves with the kind's result, rejects with a SandboxError.
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

  async runNow(realmName, kind, payload, timeoutMs) {
    let realm = this.realms.get(realmName);
    if (!realm || realm.dead) {
      realm = new Realm(this, realmName);
      this.realms.set(realmName, realm);
    }
    await realm.booted;
    return realm.exec(this.nextId++, kind, payload, timeoutMs);
  }

  // The frame element of a realm, if one is alive (tests look at its attributes).
  frame(realmName) {
    const realm = this.realms.get(realmName);
    return realm && !realm.dead ? realm.iframe : null;
  }

  dispose() {
    const error = new SandboxError("unavailable", "sandbox disposed");
    for (const realm of this.realms.values()) realm.destroy(error);
    this.realms.clear();
  }

  url(path) {
    return new URL(path, this.baseUrl).href;
  }

  runtime(name) {
    if (!this.runtimeText.has(name)) {
      const text = fetchOk(this.url(`sandbox/${name}`)).then((response) => response.text());
      text.catch(() => this.runtimeText.delete(name)); // a failed fetch is retried next time
      this.runtimeText.set(name, text);
    }
    return this.runtimeText.get(name);
  }

  // The bytes of one runtime file a frame asked for, only if it is on the list: the Pyodide core,
  // the lock file, and the wheels the lock names. The frame chooses among these names, nothing else.
  // Wheels are checked against the lock's sha256 before they are handed over.
  async asset(name) {
    if (!this.allowed) {
      this.allowed = fetchOk(this.url(`pyodide/${LOCK_NAME}`))
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

// One sandbox frame and the run in progress in it.
class Realm {
  constructor(host, name) {
    this.host = host;
    this.name = name;
    this.dead = false;
    this.current = null; // the run in progress: {id, kind, resolve, reject, timeoutMs, timer, ...}
    this.allowanceUsed = false;
    this.booted = this.boot();
    this.booted.catch((err) => this.destroy(err));
  }

  async boot() {
    const runtime = await this.host.runtime(RUNTIME_OF[this.name]).catch((err) => {
      throw new SandboxError("unavailable", `sandbox runtime could not be loaded: ${err.message}`);
    });
    if (this.dead) throw new SandboxError("unavailable", "sandbox disposed");
    const channel = new MessageChannel();
    this.port = channel.port1;
    // Offline the frame's document can only come from the page's service worker, which a frame that is
    // sandboxed by attribute bypasses: a controlled page lets the worker sandbox it by header instead
    // (the frame refuses to start unless its origin is opaque) and sets the attribute once it loaded.
    const byHeader = Boolean(globalThis.navigator?.serviceWorker?.controller);
    this.iframe = makeFrame(this.host.url("sandbox/frame.html"), this.name, !byHeader);
    const ready = new Promise((resolve, reject) => {
      this.bootWaiter = { resolve, reject };
    });
    this.port.onmessage = (event) => this.receive(event.data);
    let loads = 0;
    this.iframe.addEventListener("load", () => {
      // A second load means code in the frame navigated it away: that frame is not ours any more.
      if (loads++) return this.destroy(new SandboxError("failed", "the sandbox frame navigated away"));
      this.iframe.setAttribute("sandbox", "allow-scripts"); // for any later navigation, whatever happens
      // "*": the frame's origin is opaque; the port travels only to this frame's own window.
      const boot = { type: "agentlite-sandbox-boot", runtime };
      this.iframe.contentWindow.postMessage(boot, "*", [channel.port2]);
    });
    (this.host.container || document.body).append(this.iframe);
    const late = () => new SandboxError("unavailable", "the sandbox frame did not start");
    await withTimeout(ready, this.host.options.bootTimeoutMs, late);
  }

  exec(id, kind, payload, timeoutMs) {
    if (this.dead) return Promise.reject(new SandboxError("unavailable", "the sandbox frame is gone"));
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      this.current = { id, kind, resolve, reject, timeoutMs, timer: null, startedAt, paused: null };
      this.arm(timeoutMs);
      try {
        this.port.postMessage({ type: "run", id, kind, payload, timeout_ms: timeoutMs });
      } catch (err) {
        this.finish();
        reject(new SandboxError("bad_request", `the payload cannot be sent: ${err.message}`));
      }
    });
  }

  // The watchdog: when it fires the frame is removed, which ends whatever runs in it.
  arm(ms, message = null) {
    clearTimeout(this.current.timer);
    const seconds = (this.current.timeoutMs / 1000).toFixed(1);
    const text = message || `the code ran longer than ${seconds} s and was stopped`;
    this.current.timer = setTimeout(() => this.destroy(new SandboxError("timeout", text)), ms);
  }

  finish() {
    const run = this.current;
    if (run) clearTimeout(run.timer);
    this.current = null;
    return run;
  }

  receive(message) {
    if (!message || typeof message !== "object") return;
    switch (message.type) {
      case "ready":
        return this.bootWaiter?.resolve(undefined);
      case "boot_failed":
        return this.destroy(new SandboxError("unavailable", `runtime failed: ${clip(message.message, 500)}`));
      case "result":
        return this.settle(message);
      case "asset":
        return this.serveAsset(message);
      case "loading":
        return this.pauseForStart(message.id);
      case "loaded":
        return this.resumeAfterStart(message.id);
      default:
        return undefined; // anything else from the frame is ignored
    }
  }

  settle({ id, ok, result, error }) {
    if (!this.current || this.current.id !== id) return;
    const run = this.finish();
    if (!ok) {
      const message = error && typeof error === "object" ? error.message : error;
      return run.reject(new SandboxError("failed", clip(message ?? "the sandbox run failed", 4096)));
    }
    try {
      run.resolve(checkResult(run.kind, result));
    } catch (err) {
      run.reject(new SandboxError("invalid", err instanceof InvalidResult ? err.message : String(err)));
    }
  }

  // A heavy runtime (Pyodide) starting inside a run does not use up the run's time: the clock stops
  // while it loads, bounded by the start-up allowance, and only once per frame, so a frame cannot
  // stop its own clock again and again.
  pauseForStart(id) {
    const run = this.current;
    if (this.allowanceUsed || !run || run.id !== id) return;
    this.allowanceUsed = true;
    run.paused = { used: performance.now() - run.startedAt };
    const seconds = (this.host.options.startAllowanceMs / 1000).toFixed(0);
    this.arm(this.host.options.startAllowanceMs, `the sandbox runtime did not start within ${seconds} s`);
  }

  resumeAfterStart(id) {
    const run = this.current;
    if (!run || run.id !== id || !run.paused) return;
    const left = Math.max(0, run.timeoutMs - run.paused.used);
    run.paused = null;
    this.arm(left);
  }

  async serveAsset({ id, name }) {
    try {
      const bytes = await this.host.asset(name);
      if (!this.dead) this.port.postMessage({ type: "asset", id, ok: true, bytes }, [bytes]);
    } catch (err) {
      if (!this.dead) this.port.postMessage({ type: "asset", id, ok: false, error: err.message });
    }
  }

  destroy(error) {
    if (this.dead) return;
    this.dead = true;
    if (this.bootWaiter) this.bootWaiter.reject(error);
    const run = this.finish();
    if (run) run.reject(error);
    if (this.port) this.port.close();
    if (this.iframe) this.iframe.remove();
  }
}

function makeFrame(src, realm, sandboxByAttribute) {
  const iframe = document.createElement("iframe");
  if (sandboxByAttribute) iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("referrerpolicy", "no-referrer");
  iframe.setAttribute("aria-hidden", "true");
  iframe.setAttribute("tabindex", "-1");
  iframe.title = `sandbox (${realm})`;
  iframe.dataset.sandbox = realm;
  // Laid out (so DOM work measures real sizes) but off screen and invisible.
  iframe.style.cssText = "position:fixed;left:-20000px;top:0;width:1024px;height:768px;border:0;visibility:hidden";
  iframe.src = src;
  return iframe;
}

// name -> expected sha256 (null for the core files, which Pyodide's own start-up checks by version).
function allowedAssets(lock) {
  const allowed = new Map([...PYODIDE_CORE, LOCK_NAME].map((name) => [name, null]));
  for (const pkg of Object.values(lock.packages || {})) {
    if (pkg && typeof pkg.file_name === "string") allowed.set(pkg.file_name, pkg.sha256 || null);
  }
  return allowed;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function clip(value, length) {
  return String(value).slice(0, length);
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

function withTimeout(promise, ms, makeError) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(makeError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
