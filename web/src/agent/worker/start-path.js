// How the worker gets a running Pyodide: restored from this browser's memory snapshot when one for this
// build is stored, otherwise booted normally; a worker of its own then takes a snapshot for the next visit.
// A snapshot can only hold Python state that holds no JS object and no shared library, so it is taken
// after the agent's wheel is unpacked and its start-up modules (which do not import pydantic) and their
// standard-library imports are imported, before any package loads: in a Pyodide of its own
// (snapshot-maker.js), since the agent's holds JS objects from its start on (docs/startup.md).
import { installAgentWheel } from "./agent-wheel.js";
import { loadPyodide, version as pyodideVersion } from "./pyodide/pyodide.mjs";
import * as store from "./snapshot-store.js";
import prefix from "./snapshot-imports.json";

/** @import { PyodideAPI } from "pyodide" */
/** @import { AgentWheel } from "./agent-wheel.js" */
/** @import { QuietSpell } from "./quiet-spell.js" */
/** @typedef {typeof PATH[keyof typeof PATH]} StartPath */
/**
 * The start path chosen, and the snapshot's bytes when it is the snapshot's.
 * @typedef {{ path: "snapshot", detail: string, bytes: Uint8Array<ArrayBuffer> }
 *   | { path: Exclude<StartPath, "snapshot">, detail: string }} Choice
 */
/** @typedef {{ pyodide: PyodideAPI, wheelInstalled: boolean, restoreMs?: number }} Booted */
/**
 * What keeping a snapshot did (a bench hook).
 * @typedef {{ stored: boolean, bytes: number, reason?: string, made_ms?: Record<string, number>, ms?: number, attempts?: number }} Kept
 */
/**
 * What snapshot-maker.js answers when it took a snapshot.
 * @typedef {{ ok: true, version: string, bytes: Uint8Array<ArrayBuffer>, ms: Record<string, number> }} Made
 */

/** The start paths the progress bar names. */
export const PATH = Object.freeze({
  SNAPSHOT: "snapshot", // restored from the stored snapshot
  FRESH: "fresh", // no snapshot stored yet: a normal start that takes one
  FALLBACK: "fallback", // the stored snapshot was unusable: a normal start that replaces it
  PLAIN: "plain", // no build id to key a snapshot by: a normal start, nothing stored
});

/** @param {string} path */
const here = (path) => new URL(path, import.meta.url).href;
const BASE_OPTIONS = () => ({ indexURL: here("./pyodide/"), lockFileURL: here("./pyodide/agentlite-lock.json") });

/** The build this worker belongs to: `worker.js?build=<id>` when the page says so, else build.json. */
export async function buildId() {
  const fromQuery = new URL(self.location.href).searchParams.get("build");
  if (fromQuery) return fromQuery;
  try {
    const response = await fetch(here("./build.json"));
    return response.ok ? String((await response.json()).build || "") || null : null;
  } catch {
    return null;
  }
}

/**
 * The snapshot key of this build in this browser, or null when the build is unknown.
 * @param {string | null} build
 */
export function keyFor(build) {
  return build ? store.snapshotKey(build, pyodideVersion, navigator.userAgent) : null;
}

/**
 * Chooses the path: the stored snapshot's bytes, or why a normal start is needed.
 * @param {string | null} key
 * @returns {Promise<Choice>}
 */
export async function choose(key) {
  if (!key) return { path: PATH.PLAIN, detail: "no build id" };
  try {
    const bytes = await store.read(key);
    return bytes ? { path: PATH.SNAPSHOT, detail: "", bytes } : { path: PATH.FRESH, detail: "" };
  } catch (/** @type {any} */ err) {
    const reason = err instanceof store.UnusableSnapshot ? err.message : `snapshot store failed: ${err.message}`;
    return { path: PATH.FALLBACK, detail: reason };
  }
}

/** Pyodide restored from `bytes`, with how long the restore took. Throws when the restore fails.
 * The agent's modules are in the snapshot; its files are not (the file system is not in the heap):
 * the caller writes them again (`wheelInstalled` is false) for the modules the agent imports later.
 * @param {Uint8Array} bytes
 * @returns {Promise<Booted>} */
export async function restore(bytes) {
  const began = performance.now();
  const pyodide = await loadPyodide({ ...BASE_OPTIONS(), _loadSnapshot: bytes });
  return { pyodide, restoreMs: Math.round(performance.now() - began), wheelInstalled: false };
}

/** Pyodide booted normally, with the agent's wheel installed. No snapshot is taken here: taking one
 * needs the prefix imported first, which would delay `ready`; snapshot-maker.js takes it in a
 * worker of its own after the agent has started.
 * @param {Promise<AgentWheel>} wheel
 * @returns {Promise<Booted>} */
export async function boot(wheel) {
  const pyodide = await loadPyodide(BASE_OPTIONS());
  installAgentWheel(pyodide, await wheel);
  return { pyodide, wheelInstalled: true };
}

/** A memory snapshot of a fresh Pyodide with the agent's wheel installed and the prefix imported,
 * with what its parts cost (ms). Throws when Pyodide refuses to take it.
 * @param {AgentWheel} wheel */
export async function makeSnapshot(wheel) {
  const began = performance.now();
  const pyodide = await loadPyodide({ ...BASE_OPTIONS(), _makeSnapshot: true });
  installAgentWheel(pyodide, wheel);
  const booted = performance.now();
  importPrefix(pyodide);
  const imported = performance.now();
  const snapshot = pyodide.makeMemorySnapshot();
  const ms = { boot: booted - began, prefix: imported - booted, copy: performance.now() - imported };
  return { snapshot, ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])) };
}

// The agent's standard-library imports and its own start-up modules, so the snapshot holds them
// compiled and initialised. A module this Pyodide lacks is skipped: the agent fails on it later, with
// its own error.
/** @param {PyodideAPI} pyodide */
function importPrefix(pyodide) {
  const importlib = pyodide.pyimport("importlib");
  for (const name of [...prefix.modules, ...prefix.agent]) {
    try {
      importlib.import_module(name).destroy();
    } catch {
      // not in this Pyodide's standard library
    }
  }
  importlib.destroy();
}

const MAKER_ATTEMPTS = 5; // turns that may interrupt the maker before this visit gives up

/** Takes a snapshot in a worker of its own, in a quiet spell of the agent (`quiet`, quiet-spell.js;
 * a turn that starts meanwhile ends the maker and it starts again in the next spell), and stores it
 * under `key`; resolves to what happened (never rejects: the app works without one). The maker gets
 * the wheel's bytes this worker checked, and a snapshot of another Pyodide than this worker's (a build
 * deployed meanwhile) is not stored.
 * @param {string | null} key
 * @param {AgentWheel} wheel
 * @param {QuietSpell} quiet
 * @returns {Promise<Kept>} */
export async function keep(key, wheel, quiet) {
  if (!key) return { stored: false, bytes: 0, reason: "no build id" };
  for (let attempt = 1; attempt <= MAKER_ATTEMPTS; attempt++) {
    const signal = await quiet.begin();
    try {
      return await storeMade(key, await makeInWorker(wheel, signal), attempt);
    } catch (/** @type {any} */ err) {
      if (signal.aborted) continue; // a turn started: try again when it is over
      console.warn(`no memory snapshot this time: ${err.message}`);
      return { stored: false, bytes: 0, reason: err.message };
    }
  }
  return { stored: false, bytes: 0, reason: `interrupted by ${MAKER_ATTEMPTS} turns` };
}

/**
 * @param {string} key
 * @param {Made} made
 * @param {number} attempts
 * @returns {Promise<Kept>}
 */
async function storeMade(key, made, attempts) {
  if (made.version !== pyodideVersion) return { stored: false, bytes: 0, reason: "another Pyodide version" };
  const began = performance.now();
  try {
    await store.write(key, made.bytes);
    const ms = Math.round(performance.now() - began);
    return { stored: true, bytes: made.bytes.length, made_ms: made.ms, ms, attempts };
  } catch (/** @type {any} */ err) {
    console.warn(`the memory snapshot was not stored: ${err.message}`);
    return { stored: false, bytes: made.bytes.length, reason: err.message };
  }
}

const MAKER_TIMEOUT_MS = 180_000; // a maker that neither answers nor fails in this time has hung

// One run of snapshot-maker.js: the snapshot's bytes, the maker's Pyodide version and its costs. An
// aborted `signal` ends the maker.
/**
 * @param {AgentWheel} wheel
 * @param {AbortSignal} signal
 * @returns {Promise<Made>}
 */
function makeInWorker(wheel, signal) {
  const maker = new Worker(here("./snapshot-maker.js"), { type: "module" });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => reject(new Error("interrupted by a turn")), { once: true });
    timer = setTimeout(() => reject(new Error(`no snapshot after ${MAKER_TIMEOUT_MS / 1000} s`)), MAKER_TIMEOUT_MS);
    maker.onmessage = ({ data }) => (data.ok ? resolve(data) : reject(new Error(data.reason)));
    maker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message || "the snapshot worker could not start"));
    };
    maker.postMessage({ wheel });
  }).finally(() => {
    clearTimeout(timer);
    maker.terminate();
  });
}

/** Forgets a snapshot that restored but could not start the agent. */
export async function forget() {
  try {
    await store.remove();
  } catch (/** @type {any} */ err) {
    console.warn(`the failed snapshot could not be removed: ${err.message}`);
  }
}
