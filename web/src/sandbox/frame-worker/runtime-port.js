// The runtime's end of the MessageChannel to the SandboxHost, in the sandbox frame's Worker (see
// frame-transport.js). Everything the runtime hears after boot arrives here. Runs are answered by id;
// the runtime can also ask the host for a runtime asset by name (the host only hands out a fixed list).

// A run that stopped itself at its deadline; reported as a "timeout", like the host's watchdog.
export class RunTimedOut extends Error {
  constructor(timeoutMs) {
    super(`the code ran longer than ${(timeoutMs / 1000).toFixed(1)} s and was stopped`);
    this.name = "RunTimedOut";
  }
}

export function servePort(port, runners) {
  withoutPeerConnections();
  const assets = new Map(); // request id -> {resolve, reject}
  let nextAsset = 1;

  const channel = {
    post: (message, transfer = []) => port.postMessage(message, transfer),
    // Ask the host for the bytes of one runtime file (e.g. "pyodide.asm.wasm").
    asset(name) {
      const id = nextAsset++;
      return new Promise((resolve, reject) => {
        assets.set(id, { resolve, reject });
        port.postMessage({ type: "asset", id, name });
      });
    },
    // Tell the host that a runtime starts loading / has loaded: its watchdog does not count the
    // start-up against the run's time (once per frame, and only up to its start-up allowance).
    loading: (id) => port.postMessage({ type: "loading", id }),
    loaded: (id) => port.postMessage({ type: "loaded", id }),
  };

  async function run({ id, kind, payload, timeout_ms: timeoutMs, python_deadline: pythonDeadline }) {
    const runner = runners[kind];
    const startedAt = performance.now();
    try {
      if (!runner) throw new Error(`unknown sandbox kind: ${kind}`);
      const result = await runner(payload || {}, { id, timeoutMs, pythonDeadline, startedAt, channel });
      port.postMessage({ type: "result", id, ok: true, result });
    } catch (err) {
      const message = String(err?.message || err);
      const type = err instanceof RunTimedOut ? "timeout" : "failed";
      port.postMessage({ type: "result", id, ok: false, error: { type, message } });
    }
  }

  function settleAsset({ id, ok, bytes, error }) {
    const waiter = assets.get(id);
    if (!waiter) return;
    assets.delete(id);
    if (ok) waiter.resolve(bytes);
    else waiter.reject(new Error(error || "asset unavailable"));
  }

  port.onmessage = (event) => {
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
      delete globalThis[name];
    } catch {
      // not configurable here: leave it
    }
  }
}
