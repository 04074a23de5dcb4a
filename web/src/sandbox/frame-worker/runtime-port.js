// The runtime's end of the MessageChannel to the SandboxHost, in the sandbox frame's Worker (see
// frame-transport.js). Everything the runtime hears after boot arrives here. Runs are answered by id;
// the runtime can also ask the host for a runtime asset by name (the host only hands out a fixed list).

/** @import { RunRequest, ToRuntime } from "../../frames/common/sandbox-messages.js" */

/**
 * The runtime's side of the channel, handed to each runner.
 * @typedef {object} Channel
 * @property {(message: unknown, transfer?: Transferable[]) => void} post
 * @property {(name: string) => Promise<ArrayBuffer>} asset the bytes of one runtime file, from the host
 * @property {(id: number) => void} loading a heavy runtime starts loading inside run `id`
 * @property {(id: number) => void} loaded it has loaded
 */

/**
 * One run as its runner sees it.
 * @typedef {{id: number, timeoutMs: number, pythonDeadline: boolean, startedAt: number, channel: Channel}} RunContext
 */

/**
 * kind -> the function that runs it; its result goes back to the host as is.
 * @typedef {Record<string, (payload: Record<string, any>, run: RunContext) => Promise<unknown>>} Runners
 */

// A run that stopped itself at its deadline; reported as a "timeout", like the host's watchdog.
export class RunTimedOut extends Error {
  /** @param {number} timeoutMs */
  constructor(timeoutMs) {
    super(`the code ran longer than ${(timeoutMs / 1000).toFixed(1)} s and was stopped`);
    this.name = "RunTimedOut";
  }
}

/**
 * @param {MessagePort} port
 * @param {Runners} runners
 * @returns {Channel}
 */
export function servePort(port, runners) {
  withoutPeerConnections();
  /** @type {Map<number, {resolve: (bytes: ArrayBuffer) => void, reject: (error: Error) => void}>} */
  const assets = new Map(); // request id -> its waiter
  let nextAsset = 1;

  /** @type {Channel} */
  const channel = {
    post: (message, transfer = []) => port.postMessage(message, transfer),
    // Ask the host for the bytes of one runtime file (e.g. "pyodide.asm.wasm").
    asset(name) {
      const id = nextAsset++;
      /** @type {Promise<ArrayBuffer>} */
      const bytes = new Promise((resolve, reject) => {
        assets.set(id, { resolve, reject });
        port.postMessage({ type: "asset", id, name });
      });
      return bytes;
    },
    // Tell the host that a runtime starts loading / has loaded: its watchdog does not count the
    // start-up against the run's time (once per frame, and only up to its start-up allowance).
    loading: (id) => port.postMessage({ type: "loading", id }),
    loaded: (id) => port.postMessage({ type: "loaded", id }),
  };

  /** @param {RunRequest} request */
  async function run({ id, kind, payload, timeout_ms: timeoutMs, python_deadline: pythonDeadline }) {
    const runner = runners[kind];
    const startedAt = performance.now();
    try {
      if (!runner) throw new Error(`unknown sandbox kind: ${kind}`);
      const result = await runner(payload || {}, { id, timeoutMs, pythonDeadline, startedAt, channel });
      port.postMessage({ type: "result", id, ok: true, result });
    } catch (/** @type {any} */ err) {
      const message = String(err?.message || err);
      const type = err instanceof RunTimedOut ? "timeout" : "failed";
      port.postMessage({ type: "result", id, ok: false, error: { type, message } });
    }
  }

  /** @param {import("../../frames/common/sandbox-messages.js").AssetAnswer} answer */
  function settleAsset(answer) {
    const waiter = assets.get(answer.id);
    if (!waiter) return;
    assets.delete(answer.id);
    if (answer.ok) waiter.resolve(answer.bytes);
    else waiter.reject(new Error(answer.error || "asset unavailable"));
  }

  port.onmessage = (event) => {
    /** @type {ToRuntime} */
    const message = event.data || {};
    if (message.type === "run") run(message);
    else if (message.type === "asset") settleAsset(message);
  };
  port.postMessage({ type: "ready" });
  return channel;
}

// CSP does not govern WebRTC; take the constructors away so code here cannot open peer connections
// by accident. (Best effort; a Worker has none in most engines anyway.)
function withoutPeerConnections() {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceCandidate"]) {
    try {
      Reflect.deleteProperty(globalThis, name);
    } catch {
      // not configurable here: leave it
    }
  }
}
