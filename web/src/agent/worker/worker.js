// The agent worker: starts Pyodide in named phases, then hands every message to Python.
// Platform edge: the only JS that talks to Pyodide. Python answers through `post`.
// Each phase message carries `at_ms` (ms since the worker started) and the start path taken (`path`,
// `detail`: restored from the memory snapshot, or a normal start and why; start-path.js); the "ready"
// one also carries `timings`, the duration of each phase in ms, so a slow start can be pinned on its phase.
import { projectOfWorker } from "../common/database.js";
import { LOCAL_PORT, MSG } from "../common/protocol.js";
import { fetchAgentWheel, installAgentWheel, loadDependencies } from "./agent-wheel.js";
import * as idb from "./idb.js";
import { Inbox, isTurnCall } from "./inbox.js";
import { adoptPort, localFetch } from "./local-fetch.js";
import { QuietSpell } from "./quiet-spell.js";
import * as startPath from "./start-path.js";

/** @import { PyodideAPI } from "pyodide" */
/** @import { AgentWheel } from "./agent-wheel.js" */
/** @import { AgentService } from "./inbox.js" */
/** @import { Booted, StartPath } from "./start-path.js" */
/** @typedef {{ type: string } & Record<string, unknown>} WorkerMessage */

const QUIET_MS = 2000; // no turn message in and no chat event out for this long: time for the snapshot
const quiet = new QuietSpell(QUIET_MS);
/** @param {string} path */
const here = (path) => new URL(path, import.meta.url).href;
/** @param {WorkerMessage} message */
const post = (message) => {
  if (message.type === MSG.EVENT) quiet.busy();
  self.postMessage(message);
};
const inbox = new Inbox(); // messages wait here until Python is ready
/** @type {{ path: StartPath | null, detail: string }} */
let route = { path: null, detail: "" }; // the start path, repeated in every phase message

// The page's watchdog pings; the answer comes from this thread's message loop, so it comes whenever Python
// is not running: between awaits, during a download, while held in the inbox. A Python step that never
// yields leaves pings unanswered, and the page restarts the worker (web/src/agent/page/watchdog.js).
// The model in the page answers `local:` requests on a port the page hands over (local-fetch.js); Python's
// LocalTransport calls `agentliteLocalFetch` instead of `fetch`.
Object.assign(self, { agentliteLocalFetch: localFetch });
self.onmessage = (event) => {
  if (event.data?.type === MSG.PING) return self.postMessage({ type: MSG.PONG, id: event.data.id });
  if (event.data?.type === LOCAL_PORT) return adoptPort(event.data.port);
  if (isTurnCall(event.data)) quiet.busy();
  inbox.receive(event.data);
};

class PhaseError extends Error {
  constructor(/** @type {string} */ phase, /** @type {any} */ cause) {
    super(String(cause?.message || cause));
    this.phase = phase;
  }
}

const PHASE_TIMEOUT_MS = 180_000; // a phase that neither finishes nor fails in this time has hung
/** @type {Record<string, number>} */
const timings = {}; // phase -> ms it took
const sinceStart = () => Math.round(performance.now());

/**
 * @param {string} phase
 * @param {number} progress
 * @param {Record<string, unknown>} [extra]
 */
function announce(phase, progress, extra = {}) {
  post({ type: MSG.PHASE, phase, progress, ...route, at_ms: sinceStart(), ...extra });
}

/**
 * @template T
 * @param {string} name
 * @param {number} progress
 * @param {() => T | Promise<T>} work
 * @returns {Promise<T>}
 */
async function phase(name, progress, work) {
  const began = performance.now();
  announce(name, progress);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no progress for ${PHASE_TIMEOUT_MS / 1000} s`)), PHASE_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([work(), hung]);
    timings[name] = Math.round(performance.now() - began);
    return result;
  } catch (err) {
    throw err instanceof PhaseError ? err : new PhaseError(name, err);
  } finally {
    clearTimeout(timer);
  }
}

// Pyodide logs a missing or broken core file and then never settles: check the files alongside it
// (HEAD requests, in parallel with the load), and fail the phase with the file's name.
const CORE_FILES = ["pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip"];
/** @returns {Promise<never>} */
function coreFilesMissing() {
  return new Promise((_, reject) => {
    for (const name of CORE_FILES) {
      fetch(here(`./pyodide/${name}`), { method: "HEAD" }).then(
        (response) => response.ok || reject(new Error(`${name}: HTTP ${response.status}`)),
        (err) => reject(new Error(`${name}: ${err.message}`)),
      );
    }
  });
}

// The runtime phase: the stored snapshot when there is one for this build, else a normal boot that
// takes a snapshot. A restore that throws falls back to a normal boot at once.
/**
 * @param {string | null} key
 * @param {Promise<AgentWheel>} wheel
 * @returns {Promise<Booted>}
 */
async function runtime(key, wheel) {
  const chosen = await startPath.choose(key);
  route = { path: chosen.path, detail: chosen.detail };
  announce("runtime", 0.1);
  const booting = async () => {
    if (chosen.path !== startPath.PATH.SNAPSHOT) return await startPath.boot(wheel);
    try {
      return await startPath.restore(chosen.bytes);
    } catch (/** @type {any} */ err) {
      route = { path: startPath.PATH.FALLBACK, detail: `snapshot restore failed: ${err.message}` };
      announce("runtime", 0.1);
      return await startPath.boot(wheel);
    }
  };
  return await Promise.race([booting(), coreFilesMissing()]);
}

// The agent's wheel: fetched (and checked) in parallel with the runtime phase. A normal boot installs it
// before the agent starts, and the snapshot maker gets the same bytes. A restored start needs its files
// only for the modules that are not in the snapshot (the tools, which need pydantic), so it writes them
// after `ready` (loadDeferred); its packages phase only waits for the checked bytes, so a missing wheel
// still fails before `ready`.
function fetchWheel() {
  const wheel = fetchAgentWheel().catch((err) => {
    throw new PhaseError("packages", err);
  });
  wheel.catch(() => {}); // reported by the phase that awaits it
  return wheel;
}

/**
 * @param {PyodideAPI} pyodide
 * @param {Promise<AgentWheel>} wheel
 * @returns {Promise<AgentService>}
 */
async function startAgent(pyodide, wheel) {
  await phase("packages", 0.4, () => wheel);
  await phase("storage", 0.8, async () => {
    idb.useProject(projectOfWorker(self.name)); // the page names its worker after the open project
    pyodide.registerJsModule("agentlite_idb", idb);
  });
  return await phase("agent", 0.9, async () => {
    const host = pyodide.pyimport("agentlite.browser.host");
    return await host.start((/** @type {string} */ json) => post(JSON.parse(json)));
  });
}

const IMPORT_TOOLS = "from agentlite.tools import catalog; catalog.all_tools()"; // the tool modules

// After `ready`: the wheel's files (after a restore), pydantic, the tool modules. The inbox holds turn
// messages until this settles. A failure means a broken build, as a failed package load before
// `ready` did.
/**
 * @param {Booted} booted
 * @param {Promise<AgentWheel>} wheel
 */
async function loadDeferred(booted, wheel) {
  /** @type {Record<string, number>} */
  const ms = {}; // step -> ms it took, a bench hook
  /** @type {(name: string, work: () => Promise<unknown>) => Promise<void>} */
  const step = async (name, work) => {
    const began = performance.now();
    await work();
    ms[name] = Math.round(performance.now() - began);
  };
  try {
    if (!booted.wheelInstalled) await step("wheel", async () => installAgentWheel(booted.pyodide, await wheel));
    await step("pydantic", async () => loadDependencies(booted.pyodide, await wheel));
    await step("tools", async () => booted.pyodide.runPython(IMPORT_TOOLS));
    return { ms: Object.values(ms).reduce((a, b) => a + b, 0), steps: ms };
  } catch (/** @type {any} */ err) {
    post({ type: MSG.FAILED, phase: "packages", message: err.message });
    throw err;
  }
}

async function start() {
  /** @type {string | null} */
  let key = null;
  let wheel = fetchWheel();
  let booted = await phase("runtime", 0.05, async () => {
    key = startPath.keyFor(await startPath.buildId());
    return await runtime(key, wheel);
  });
  /** @type {AgentService} */
  let service;
  try {
    service = await startAgent(booted.pyodide, wheel);
  } catch (/** @type {any} */ err) {
    if (route.path !== startPath.PATH.SNAPSHOT) throw err;
    // The restored interpreter could not start the agent: forget the snapshot, start normally.
    await startPath.forget();
    route = { path: startPath.PATH.FALLBACK, detail: `restored snapshot failed: ${err.message}` };
    wheel = fetchWheel();
    booted = await phase("runtime", 0.05, () => startPath.boot(wheel));
    service = await startAgent(booted.pyodide, wheel);
  }
  // Test and bench hooks: the path taken and its costs, then what taking and storing a snapshot did.
  self.agentliteStart = { ...route, restore_ms: booted.restoreMs ?? null, timings };
  announce("ready", 1, { timings });
  post({ type: MSG.READY });
  const deferred = loadDeferred(booted, wheel);
  self.agentliteDeferred = deferred;
  // Remote servers' tools may join the registry once its tool modules can load.
  deferred.then(() => service.packages_loaded()).catch(() => {});
  inbox.open(service, booted.pyodide, deferred);
  self.agentliteSnapshotStored = snapshotForNextVisit(key, deferred, wheel);
}

// A normal start leaves a snapshot for the next visit, taken once the agent is complete (pydantic and
// the tools in) and quiet, so its worker competes neither with the start nor with a turn.
/**
 * @param {string | null} key
 * @param {Promise<unknown>} deferred
 * @param {Promise<AgentWheel>} wheel
 */
async function snapshotForNextVisit(key, deferred, wheel) {
  if (route.path === startPath.PATH.SNAPSHOT) return { stored: false, bytes: 0, reason: "restored from it" };
  try {
    await deferred;
  } catch (/** @type {any} */ err) {
    return { stored: false, bytes: 0, reason: `the agent did not load: ${err.message}` };
  }
  return await startPath.keep(key, await wheel, quiet);
}

start().catch((err) => post({ type: MSG.FAILED, phase: err.phase || "runtime", message: err.message }));
