// The frame transport: one sandbox frame, the MessageChannel port to the runtime inside it, and the
// watchdog of the run in progress. The frame (sandbox="allow-scripts", an opaque origin, no network:
// web/sandbox/frame.html) starts the runtime in a Worker of its own, so model-written code runs off
// the page's thread in every engine; the port leads straight to that worker. Removing the frame ends
// the worker, whatever it is doing: that is how the watchdog stops a runaway run.
import { bootFrame, makeSandboxedFrame, onFrameLoads } from "../../frames/page/frame-port.js";
import { InvalidResult, checkResult } from "./results.js";

/** @import { FromRuntime, RunAnswer, AssetRequest, EvalResult, ProcessResult } from "../../frames/common/sandbox-messages.js" */
/** @import { SandboxHost } from "./host.js" */

/** @typedef {"timeout" | "unavailable" | "invalid" | "failed" | "bad_request"} SandboxErrorType */

/**
 * The run in progress: how it ends (resolve/reject), its time, the watchdog's timer, and where its
 * clock stands while a heavy runtime starts (`paused`).
 * @typedef {{id: number, kind: string, resolve: (result: EvalResult | ProcessResult) => void,
 *   reject: (error: SandboxError) => void, timeoutMs: number, timer: ReturnType<typeof setTimeout> | undefined,
 *   startedAt: number, paused: {used: number} | null}} Run
 */

// `type`: "timeout" (the run overstayed; the frame was removed), "unavailable" (the frame could not
// start), "invalid" (the frame's answer broke the rules), "failed" (the runtime reported a failure),
// "bad_request" (unknown kind or a payload that cannot be sent).
export class SandboxError extends Error {
  /**
   * @param {SandboxErrorType} type
   * @param {string} message
   */
  constructor(type, message) {
    super(message);
    this.name = "SandboxError";
    this.type = type;
  }
}

export class FrameTransport {
  /**
   * host: the SandboxHost (runtime text, assets, options); name: the realm ("js", "shell"); runtimeFile:
   * the runtime the frame's worker imports.
   * @param {SandboxHost} host
   * @param {string} name
   * @param {string} runtimeFile
   */
  constructor(host, name, runtimeFile) {
    this.host = host;
    this.name = name;
    this.runtimeFile = runtimeFile;
    this.dead = false;
    /** @type {Run | null} */
    this.current = null;
    this.allowanceUsed = false;
    this.booted = this.boot();
    this.booted.catch((err) => this.destroy(err));
  }

  async boot() {
    const runtime = await this.host.runtime(this.runtimeFile).catch((/** @type {Error} */ err) => {
      throw new SandboxError("unavailable", `sandbox runtime could not be loaded: ${err.message}`);
    });
    if (this.dead) throw new SandboxError("unavailable", "sandbox disposed");
    const iframe = makeFrame(this.host.url("sandbox/frame.html"), this.name);
    this.iframe = iframe;
    /** @type {Promise<undefined>} */
    const ready = new Promise((resolve, reject) => {
      /** @type {{resolve: (value: undefined) => void, reject: (error: SandboxError) => void} | undefined} */
      this.bootWaiter = { resolve, reject };
    });
    // A second load means code in the frame navigated it away: that frame is not ours any more.
    const away = () => this.destroy(new SandboxError("failed", "the sandbox frame navigated away"));
    onFrameLoads(
      iframe,
      () => {
        /** @type {import("../../frames/common/sandbox-messages.js").SandboxBoot} */
        const boot = { type: "agentlite-sandbox-boot", runtime };
        const port = bootFrame(iframe, boot);
        port.onmessage = (event) => this.receive(event.data);
        this.port = port;
      },
      away,
    );
    (this.host.container || document.body).append(iframe);
    const late = () => new SandboxError("unavailable", "the sandbox frame did not start");
    await withTimeout(ready, this.host.options.bootTimeoutMs, late);
  }

  /**
   * @param {number} id
   * @param {string} kind
   * @param {Record<string, unknown>} payload
   * @param {number} timeoutMs
   * @returns {Promise<EvalResult | ProcessResult>}
   */
  exec(id, kind, payload, timeoutMs) {
    if (this.dead) return Promise.reject(new SandboxError("unavailable", "the sandbox frame is gone"));
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      this.current = { id, kind, resolve, reject, timeoutMs, timer: undefined, startedAt, paused: null };
      this.arm(timeoutMs);
      try {
        const pythonDeadline = Boolean(this.host.options.pythonDeadline);
        /** @type {import("../../frames/common/sandbox-messages.js").RunRequest} */
        const request = {
          type: "run",
          id,
          kind,
          payload,
          timeout_ms: timeoutMs,
          python_deadline: pythonDeadline,
        };
        /** @type {MessagePort} */ (this.port).postMessage(request);
      } catch (err) {
        this.finish();
        reject(new SandboxError("bad_request", `the payload cannot be sent: ${/** @type {Error} */ (err).message}`));
      }
    });
  }

  /**
   * The watchdog: when it fires the frame is removed, which ends whatever runs in it.
   * @param {number} ms
   * @param {string | null} [message]
   */
  arm(ms, message = null) {
    const run = /** @type {Run} */ (this.current);
    clearTimeout(run.timer);
    const seconds = (run.timeoutMs / 1000).toFixed(1);
    const text = message || `the code ran longer than ${seconds} s and was stopped`;
    run.timer = setTimeout(() => this.destroy(new SandboxError("timeout", text)), ms);
  }

  finish() {
    const run = this.current;
    if (run) clearTimeout(run.timer);
    this.current = null;
    return run;
  }

  /** @param {FromRuntime} message */
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

  /**
   * The frame is not trusted: `error` may be anything, not only a RunFailure.
   * @param {RunAnswer} answer
   */
  settle(answer) {
    if (!this.current || this.current.id !== answer.id) return;
    const run = /** @type {Run} */ (this.finish());
    if (!answer.ok) {
      /** @type {any} */
      const error = answer.error;
      const message = error && typeof error === "object" ? error.message : error;
      // Python stopped at its own deadline (WebKit): the same failure as the watchdog's.
      const type = error?.type === "timeout" ? "timeout" : "failed";
      return run.reject(new SandboxError(type, clip(message ?? "the sandbox run failed", 4096)));
    }
    try {
      run.resolve(checkResult(run.kind, answer.result));
    } catch (err) {
      run.reject(new SandboxError("invalid", err instanceof InvalidResult ? err.message : String(err)));
    }
  }

  // A heavy runtime (Pyodide) starting inside a run does not use up the run's time: the clock stops
  // while it loads, bounded by the start-up allowance, and only once per frame, so a frame cannot
  // stop its own clock again and again.
  /** @param {number} id */
  pauseForStart(id) {
    const run = this.current;
    if (this.allowanceUsed || !run || run.id !== id) return;
    this.allowanceUsed = true;
    run.paused = { used: performance.now() - run.startedAt };
    const seconds = (this.host.options.startAllowanceMs / 1000).toFixed(0);
    this.arm(this.host.options.startAllowanceMs, `the sandbox runtime did not start within ${seconds} s`);
  }

  /** @param {number} id */
  resumeAfterStart(id) {
    const run = this.current;
    if (!run || run.id !== id || !run.paused) return;
    const left = Math.max(0, run.timeoutMs - run.paused.used);
    run.paused = null;
    this.arm(left);
  }

  /** @param {AssetRequest} request */
  async serveAsset({ id, name }) {
    const port = /** @type {MessagePort} */ (this.port); // a request came through it
    try {
      const bytes = await this.host.asset(name);
      if (!this.dead) port.postMessage({ type: "asset", id, ok: true, bytes }, [bytes]);
    } catch (err) {
      if (!this.dead) port.postMessage({ type: "asset", id, ok: false, error: /** @type {Error} */ (err).message });
    }
  }

  /** @param {SandboxError} error */
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

/**
 * Off screen and invisible: nothing renders in it (the code runs in its Worker).
 * @param {string} src
 * @param {string} realm
 */
function makeFrame(src, realm) {
  const iframe = makeSandboxedFrame(src);
  iframe.setAttribute("aria-hidden", "true");
  iframe.setAttribute("tabindex", "-1");
  iframe.title = `sandbox (${realm})`;
  iframe.dataset.sandbox = realm;
  iframe.style.cssText = "position:fixed;left:-20000px;top:0;width:1024px;height:768px;border:0;visibility:hidden";
  return iframe;
}

/**
 * @param {unknown} value
 * @param {number} length
 */
function clip(value, length) {
  return String(value).slice(0, length);
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {() => Error} makeError
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms, makeError) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(makeError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
