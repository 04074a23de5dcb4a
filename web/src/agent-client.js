// The main thread's side of the worker protocol: starts the agent worker, posts messages, settles
// CALL promises, and hands events to listeners. Messages posted before the worker is ready are
// buffered by the worker and run once Python is up, so the composer works from the first second.
// Once ready, a watchdog pings the worker (watchdog.js); a worker that stopped answering is ended and a
// new one started: the calls it owed are rejected, listeners hear "restart" and then "ready" again.
import { MSG } from "./protocol.js";
import { HANG_MS, Watchdog } from "./watchdog.js";

/** A method the page may call: py/agentlite/calls.py defines them, buildsys/page_facts.py lists them in
 * web/src/generated/calls.json (read by the type check only, never bundled).
 * @typedef {keyof typeof import("./generated/calls.json").methods} CallMethod */

/** The worker web/src/worker-start.js started early, with the events that came before it was taken
 * over, or a fresh worker when that script did not run. */
function adoptEarlyWorker(workerUrl) {
  const started = globalThis.agentliteEarlyWorker;
  delete globalThis.agentliteEarlyWorker;
  if (started) return started;
  return { worker: new Worker(workerUrl, { type: "module" }), early: [] };
}

export class AgentClient {
  constructor(workerUrl) {
    this.listeners = { phase: [], ready: [], failed: [], event: [], change: [], sandbox_run: [], restart: [], mcp: [] };
    this.workerUrl = workerUrl;
    this.generation = 0; // grows with each restart: answers meant for an ended worker are dropped
    this.watchdog = new Watchdog({
      send: (id) => this.post({ type: MSG.PING, id }),
      onHang: (ms) => this.restart(`the agent stopped answering for ${Math.round(ms / 1000)} s`),
    });
    this.pending = new Map();
    this.nextId = 1;
    this.state = "loading";
    this.ready = new Promise((resolve, reject) => {
      this.on("ready", resolve);
      this.on("failed", reject);
    });
    this.ready.catch(() => {}); // failure is shown by the load view; awaiting callers still see it
    const { worker, early } = adoptEarlyWorker(workerUrl);
    this.attach(worker);
    // Handed on once the page's wiring (app.js, synchronous) has added its listeners, and before any
    // later message: a microtask runs before the next task.
    queueMicrotask(() => {
      for (const event of early) {
        if (event.type === "error") this.workerFailed(event);
        else this.receive(/** @type {MessageEvent} */ (event).data);
      }
    });
  }

  attach(worker) {
    this.worker = worker;
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.workerFailed(event);
    };
  }

  /** End a worker that stopped answering and start a new one. Everything it kept is in IndexedDB
   * already; what it owed the page is rejected with `reason`. */
  restart(reason) {
    this.watchdog.stop();
    this.worker.terminate();
    this.generation++;
    this.state = "loading";
    const error = new Error(`${reason}; it was restarted`);
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
    this.attach(new Worker(this.workerUrl, { type: "module" }));
    this.emit("restart", { reason, hangMs: HANG_MS });
  }

  workerFailed(event) {
    this.fail("runtime", event.message || "the agent worker could not start");
  }

  on(kind, listener) {
    this.listeners[kind].push(listener);
  }

  emit(kind, ...args) {
    for (const listener of this.listeners[kind]) listener(...args);
  }

  post(message) {
    this.worker.postMessage(message);
  }

  /** Ask the worker; resolves to the method's answer. @param {CallMethod} method */
  call(method, args = {}) {
    if (this.state === "failed") return Promise.reject(new Error(`agent unavailable: ${this.failure}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ type: MSG.CALL, id, method, args });
    });
  }

  fail(phase, message) {
    if (this.state === "failed") return;
    this.state = "failed";
    this.watchdog.stop();
    this.failure = `${phase}: ${message}`;
    for (const { reject } of this.pending.values()) reject(new Error(`agent failed in ${this.failure}`));
    this.pending.clear();
    this.emit("failed", { phase, message });
  }

  receive(message) {
    switch (message.type) {
      case MSG.PHASE:
        return this.emit("phase", message);
      case MSG.READY:
        this.state = "ready";
        this.watchdog.start();
        return this.emit("ready");
      case MSG.PONG:
        return this.watchdog.answered(message.id);
      case MSG.FAILED:
        return this.fail(message.phase, message.message);
      case MSG.EVENT:
        return this.emit("event", message.chat, message.event);
      case MSG.CHANGE:
        return this.emit("change", message.change);
      case MSG.REPLY:
        return this.settle(message);
      case MSG.SANDBOX_RUN:
        return this.emit("sandbox_run", message);
      case MSG.MCP:
        return this.emit("mcp", message.server);
      default:
        console.warn("agentlite: unknown worker message", message.type);
    }
  }

  settle({ id, ok, value, error }) {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (ok) waiter.resolve(value);
    else waiter.reject(new Error(error));
  }
}
