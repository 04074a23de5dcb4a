// The frame transport: one sandbox frame, the MessageChannel port to the runtime inside it, and the
// watchdog of the run in progress. The frame (sandbox="allow-scripts", an opaque origin, no network:
// web/sandbox/frame.html) starts the runtime in a Worker of its own, so model-written code runs off
// the page's thread in every engine; the port leads straight to that worker. Removing the frame ends
// the worker, whatever it is doing: that is how the watchdog stops a runaway run.
import { bootFrame, makeSandboxedFrame, onFrameLoads } from "../frames/page/frame-port.js";
import { InvalidResult, checkResult } from "./results.js";

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

export class FrameTransport {
  // host: the SandboxHost (runtime text, assets, options); name: the realm ("js", "shell"); runtimeFile:
  // the runtime the frame's worker imports.
  constructor(host, name, runtimeFile) {
    this.host = host;
    this.name = name;
    this.runtimeFile = runtimeFile;
    this.dead = false;
    this.current = null; // the run in progress: {id, kind, resolve, reject, timeoutMs, timer, ...}
    this.allowanceUsed = false;
    this.booted = this.boot();
    this.booted.catch((err) => this.destroy(err));
  }

  async boot() {
    const runtime = await this.host.runtime(this.runtimeFile).catch((err) => {
      throw new SandboxError("unavailable", `sandbox runtime could not be loaded: ${err.message}`);
    });
    if (this.dead) throw new SandboxError("unavailable", "sandbox disposed");
    this.iframe = makeFrame(this.host.url("sandbox/frame.html"), this.name);
    const ready = new Promise((resolve, reject) => {
      this.bootWaiter = { resolve, reject };
    });
    onFrameLoads(
      this.iframe,
      () => {
        this.port = bootFrame(this.iframe, { type: "agentlite-sandbox-boot", runtime });
        this.port.onmessage = (event) => this.receive(event.data);
      },
      // Code in the frame navigated it away: that frame is not ours any more.
      () => this.destroy(new SandboxError("failed", "the sandbox frame navigated away")),
    );
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
        const pythonDeadline = Boolean(this.host.options.pythonDeadline);
        this.port.postMessage({
          type: "run",
          id,
          kind,
          payload,
          timeout_ms: timeoutMs,
          python_deadline: pythonDeadline,
        });
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
      // Python stopped at its own deadline (WebKit): the same failure as the watchdog's.
      const type = error?.type === "timeout" ? "timeout" : "failed";
      return run.reject(new SandboxError(type, clip(message ?? "the sandbox run failed", 4096)));
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

// Off screen and invisible: nothing renders in it (the code runs in its Worker).
function makeFrame(src, realm) {
  const iframe = makeSandboxedFrame(src);
  iframe.setAttribute("aria-hidden", "true");
  iframe.setAttribute("tabindex", "-1");
  iframe.title = `sandbox (${realm})`;
  iframe.dataset.sandbox = realm;
  iframe.style.cssText = "position:fixed;left:-20000px;top:0;width:1024px;height:768px;border:0;visibility:hidden";
  return iframe;
}

function clip(value, length) {
  return String(value).slice(0, length);
}

function withTimeout(promise, ms, makeError) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(makeError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
