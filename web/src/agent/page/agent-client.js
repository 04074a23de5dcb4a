// The main thread's side of the worker protocol: starts the agent worker, posts messages, settles
// CALL promises, and hands events to listeners. Messages posted before the worker is ready are
// buffered by the worker and run once Python is up, so the composer works from the first second.
// Once ready, a watchdog pings the worker (watchdog.js); a worker that stopped answering is ended and a
// new one started: the calls it owed are rejected, listeners hear "restart" and then "ready" again.
import { MSG } from "../common/protocol.js";
import { Watchdog } from "./watchdog.js";

/** @import { CallArgs } from "../../generated/call-types" */
/** @import { Msg, PageMessage, ToPage, WorkerMessage } from "../../generated/protocol-types" */
/** @import { ChatEvents } from "../../generated/chat-event-types" */
/** An event of a chat: the worker's table of kinds (web/src/generated/chat-event-types.d.ts).
 * @typedef {ChatEvents[keyof ChatEvents]} ChatEvent */
/** A change the worker reports: "closed" (another tab upgraded the database), else the workspace changed.
 * @typedef {{ type: string, author?: string, paths?: string[], message?: string }} WorkspaceChange */
// MSG's values are plain strings to the type check (protocol.json); the casts to their literal types
// (`Msg`) let a message's type pick its fields.
/** A method the page may call: py/agentlite/calls.py defines them, buildsys/build/page_facts.py lists them
 * with their arguments in web/src/generated/call-types.d.ts (read by the type check only, never bundled).
 * @typedef {import("../../generated/call-types").CallMethod} CallMethod */
/**
 * What each kind of listener is called with (`on(kind, listener)`).
 * @typedef {{
 *   phase: [ToPage["phase"]],
 *   ready: [],
 *   failed: [{ phase: string, message: string }],
 *   event: [string, ChatEvent],
 *   change: [WorkspaceChange],
 *   page_job: [ToPage["page_job"]],
 *   restart: [{ reason: string, hangMs: number }],
 *   mcp: [ToPage["mcp"]["server"]],
 * }} ClientEvents
 */
/**
 * @template {keyof ClientEvents} K
 * @typedef {(...args: ClientEvents[K]) => void} Listener
 */
/** @typedef {{ resolve: (value: unknown) => void, reject: (error: Error) => void }} Waiter */

/** The worker web/src/agent/page/worker-start.js started early, with the events that came before it was taken
 * over, or a fresh worker when that script did not run.
 * @param {string | URL} workerUrl @param {WorkerOptions} options */
function adoptEarlyWorker(workerUrl, options) {
  const started = globalThis.agentliteEarlyWorker;
  delete globalThis.agentliteEarlyWorker;
  if (started) return started;
  return { worker: new Worker(workerUrl, options), early: [] };
}

export class AgentClient {
  /** @param {string | URL} workerUrl @param {string} name the worker's name: the open project's (projects/current.js) */
  constructor(workerUrl, name) {
    /** @type {{ [K in keyof ClientEvents]: Listener<K>[] }} */
    this.listeners = { phase: [], ready: [], failed: [], event: [], change: [], page_job: [], restart: [], mcp: [] };
    this.workerUrl = workerUrl;
    /** @type {WorkerOptions} */
    this.workerOptions = { type: "module", name };
    this.generation = 0; // grows with each restart: answers meant for an ended worker are dropped
    this.watchdog = new Watchdog({
      send: (/** @type {number} */ id) => this.post({ type: /** @type {Msg["PING"]} */ (MSG.PING), id }),
      onHang: (/** @type {number} */ ms) => this.restart(`the agent stopped answering for ${Math.round(ms / 1000)} s`),
    });
    /** @type {Map<number, Waiter>} */
    this.pending = new Map();
    this.nextId = 1;
    this.state = "loading";
    /** @type {Promise<void>} */
    this.ready = new Promise((resolve, reject) => {
      this.on("ready", resolve);
      this.on("failed", reject);
    });
    this.ready.catch(() => {}); // failure is shown by the load view; awaiting callers still see it
    const { worker, early } = adoptEarlyWorker(workerUrl, this.workerOptions);
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

  /** @param {Worker} worker */
  attach(worker) {
    /** @type {Worker} */
    this.worker = worker;
    worker.onmessage = (event) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.workerFailed(event);
    };
  }

  /** End a worker that stopped answering and start a new one. Everything it kept is in IndexedDB
   * already; what it owed the page is rejected with `reason`.
   * @param {string} reason */
  restart(reason) {
    this.watchdog.stop();
    this.worker.terminate();
    this.generation++;
    this.state = "loading";
    const error = new Error(`${reason}; it was restarted`);
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
    this.attach(new Worker(this.workerUrl, this.workerOptions));
    this.emit("restart", { reason, hangMs: this.watchdog.hangMs });
  }

  /** @param {Event} event an ErrorEvent, or an Event when the worker's script could not load */
  workerFailed(event) {
    this.fail("runtime", /** @type {ErrorEvent} */ (event).message || "the agent worker could not start");
  }

  /**
   * @template {keyof ClientEvents} K
   * @param {K} kind
   * @param {Listener<K>} listener
   */
  on(kind, listener) {
    this.listeners[kind].push(listener);
  }

  /**
   * @template {keyof ClientEvents} K
   * @param {K} kind
   * @param {ClientEvents[K]} args
   */
  emit(kind, ...args) {
    for (const listener of this.listeners[kind]) listener(...args);
  }

  /** @param {PageMessage} message */
  post(message) {
    this.worker.postMessage(message);
  }

  /**
   * Ask the worker; resolves to the method's answer.
   * @template {CallMethod} M
   * @param {M} method
   * @param {CallArgs<M>} [args]
   * @returns {Promise<any>} the method's answer, whose shape depends on the method
   */
  call(method, args = /** @type {CallArgs<M>} */ ({})) {
    if (this.state === "failed") return Promise.reject(new Error(`agent unavailable: ${this.failure}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ type: /** @type {Msg["CALL"]} */ (MSG.CALL), id, method, args });
    });
  }

  /**
   * @param {string} phase
   * @param {string} message
   */
  fail(phase, message) {
    if (this.state === "failed") return;
    this.state = "failed";
    this.watchdog.stop();
    this.failure = `${phase}: ${message}`;
    for (const { reject } of this.pending.values()) reject(new Error(`agent failed in ${this.failure}`));
    this.pending.clear();
    this.emit("failed", { phase, message });
  }

  /** @param {WorkerMessage} message */
  receive(message) {
    switch (message.type) {
      case /** @type {Msg["PHASE"]} */ (MSG.PHASE):
        return this.emit("phase", message);
      case /** @type {Msg["READY"]} */ (MSG.READY):
        this.state = "ready";
        this.watchdog.start();
        return this.emit("ready");
      case /** @type {Msg["PONG"]} */ (MSG.PONG):
        return this.watchdog.answered(message.id);
      case /** @type {Msg["FAILED"]} */ (MSG.FAILED):
        return this.fail(message.phase, message.message);
      case /** @type {Msg["EVENT"]} */ (MSG.EVENT):
        return this.emit("event", message.chat, /** @type {ChatEvent} */ (message.event)); // the worker's own kinds
      case /** @type {Msg["CHANGE"]} */ (MSG.CHANGE):
        return this.emit("change", /** @type {WorkspaceChange} */ (message.change));
      case /** @type {Msg["REPLY"]} */ (MSG.REPLY):
        return this.settle(message);
      case /** @type {Msg["PAGE_JOB"]} */ (MSG.PAGE_JOB):
        return this.emit("page_job", message);
      case /** @type {Msg["MCP"]} */ (MSG.MCP):
        return this.emit("mcp", message.server);
      default:
        console.warn("agentlite: unknown worker message", /** @type {{ type: unknown }} */ (message).type);
    }
  }

  /** @param {ToPage["reply"]} reply */
  settle({ id, ok, value, error }) {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (ok) waiter.resolve(value);
    else waiter.reject(new Error(error));
  }
}
