// How the worker gets a running Pyodide: restored from this browser's memory snapshot when one for this
// build is stored, otherwise booted normally while taking a fresh snapshot for the next visit.
// A snapshot can only hold Python state that holds no JS object and no shared library, so it is taken
// after the agent's wheel is unpacked and its start-up modules (which do not import pydantic) and their
// standard-library imports are imported, before any package loads (docs/startup.md).
import { installAgentWheel } from "./agent-wheel.js";
import { loadPyodide, version as pyodideVersion } from "./pyodide/pyodide.mjs";
import * as store from "./snapshot-store.js";
import prefix from "./snapshot-imports.json";

/** The start paths the progress bar names. */
export const PATH = Object.freeze({
  SNAPSHOT: "snapshot", // restored from the stored snapshot
  FRESH: "fresh", // no snapshot stored yet: a normal start that takes one
  FALLBACK: "fallback", // the stored snapshot was unusable: a normal start that replaces it
  PLAIN: "plain", // no build id to key a snapshot by: a normal start, nothing stored
});

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

/** The snapshot key of this build in this browser, or null when the build is unknown. */
export function keyFor(build) {
  return build ? store.snapshotKey(build, pyodideVersion, navigator.userAgent) : null;
}

/** Chooses the path: the stored snapshot's bytes, or why a normal start is needed. */
export async function choose(key) {
  if (!key) return { path: PATH.PLAIN, detail: "no build id" };
  try {
    const bytes = await store.read(key);
    return bytes ? { path: PATH.SNAPSHOT, detail: "", bytes } : { path: PATH.FRESH, detail: "" };
  } catch (err) {
    const reason = err instanceof store.UnusableSnapshot ? err.message : `snapshot store failed: ${err.message}`;
    return { path: PATH.FALLBACK, detail: reason };
  }
}

/** Pyodide restored from `bytes`, with how long the restore took. Throws when the restore fails.
 * The agent's modules are in the snapshot; its files are not (the file system is not in the heap):
 * the caller writes them again (`wheelInstalled` is false) for the modules the agent imports later. */
export async function restore(bytes) {
  const began = performance.now();
  const pyodide = await loadPyodide({ ...BASE_OPTIONS(), _loadSnapshot: bytes });
  return { pyodide, restoreMs: Math.round(performance.now() - began), snapshot: null, wheelInstalled: false };
}

/** Pyodide booted normally, with the agent's wheel installed; `snapshot` holds a fresh snapshot's
 * bytes (null when taking one failed or none was asked for). */
export async function boot(takeSnapshot, wheel) {
  const pyodide = await loadPyodide({ ...BASE_OPTIONS(), _makeSnapshot: takeSnapshot });
  installAgentWheel(pyodide, await wheel);
  if (!takeSnapshot) return { pyodide, snapshot: null, wheelInstalled: true };
  const began = performance.now();
  importPrefix(pyodide);
  const imported = performance.now();
  try {
    const snapshot = pyodide.makeMemorySnapshot();
    const made = performance.now();
    const ms = { prefix: Math.round(imported - began), copy: Math.round(made - imported) };
    return { pyodide, snapshot, makeMs: ms, wheelInstalled: true };
  } catch (err) {
    console.warn(`no memory snapshot this time: ${err.message}`);
    return { pyodide, snapshot: null, wheelInstalled: true };
  }
}

// The agent's standard-library imports and its own start-up modules, so the snapshot holds them
// compiled and initialised. A module this Pyodide lacks is skipped: the agent fails on it later, with
// its own error.
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

/** Stores a fresh snapshot; resolves to what happened (never rejects: the app works without one). */
export async function keep(key, bytes) {
  if (!key || !bytes) return { stored: false, bytes: 0, reason: key ? "no snapshot taken" : "no build id" };
  const began = performance.now();
  try {
    await store.write(key, bytes);
    return { stored: true, bytes: bytes.length, ms: Math.round(performance.now() - began) };
  } catch (err) {
    console.warn(`the memory snapshot was not stored: ${err.message}`);
    return { stored: false, bytes: bytes.length, reason: err.message };
  }
}

/** Forgets a snapshot that restored but could not start the agent. */
export async function forget() {
  try {
    await store.remove();
  } catch (err) {
    console.warn(`the failed snapshot could not be removed: ${err.message}`);
  }
}
