// The agent worker: starts Pyodide in named phases, then hands every message to Python.
// Platform edge: the only JS that talks to Pyodide. Python answers through `post`.
// Each phase message carries `at_ms` (ms since the worker started); the "ready" one also carries
// `timings`, the duration of each phase in ms, so a slow start can be pinned on its phase.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { MSG } from "../protocol.js";
import * as idb from "./idb.js";

const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);
const early = []; // messages that arrive before Python is ready
let service = null;

self.onmessage = (event) => {
  if (service) service.handle(JSON.stringify(event.data));
  else early.push(event.data);
};

class PhaseError extends Error {
  constructor(phase, cause) {
    super(String((cause && cause.message) || cause));
    this.phase = phase;
  }
}

const PHASE_TIMEOUT_MS = 180_000; // a phase that neither finishes nor fails in this time has hung
const timings = {}; // phase -> ms it took
const sinceStart = () => Math.round(performance.now());

async function phase(name, progress, work) {
  const began = performance.now();
  post({ type: MSG.PHASE, phase: name, progress, at_ms: sinceStart() });
  let timer;
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

async function loadWheels(pyodide) {
  // A wrong sha256 or a missing file does not reject loadPackage: collect its error messages instead.
  const errors = [];
  let loaded = 0;
  await pyodide.loadPackage(["agentlite"], {
    messageCallback: (msg) => {
      if (/^Loaded /.test(msg)) {
        post({ type: MSG.PHASE, phase: "packages", progress: 0.45 + 0.05 * ++loaded, at_ms: sinceStart() });
      }
    },
    errorCallback: (msg) => errors.push(msg),
  });
  if (errors.length) throw new Error(errors.join("; "));
}

async function start() {
  const pyodide = await phase("runtime", 0.05, () =>
    Promise.race([
      loadPyodide({ indexURL: here("./pyodide/"), lockFileURL: here("./pyodide/agentlite-lock.json") }),
      coreFilesMissing(),
    ]),
  );
  await phase("packages", 0.4, () => loadWheels(pyodide));
  await phase("storage", 0.8, async () => {
    pyodide.registerJsModule("agentlite_idb", idb);
  });
  service = await phase("agent", 0.9, async () => {
    const host = pyodide.pyimport("agentlite.browser.host");
    return await host.start((json) => post(JSON.parse(json)));
  });
  post({ type: MSG.PHASE, phase: "ready", progress: 1, at_ms: sinceStart(), timings });
  post({ type: MSG.READY });
  for (const message of early.splice(0)) service.handle(JSON.stringify(message));
  loadTokenizer(pyodide);
}

// The real tokenizer (tokens.js, a separate bundle of 2.4 MB) loads once the agent is ready, so the
// start does not wait for it; the agent estimates token counts until it is installed. The promise is
// left on the worker's global as a test hook: a test awaits it before checking the counts (only the
// app's own code runs in this worker).
function loadTokenizer(pyodide) {
  self.agentliteTokenizer = import("./worker-tokens.js").then(
    (module) => {
      pyodide.registerJsModule("agentlite_tokens", module);
      pyodide.pyimport("agentlite.browser.tokenizer").install();
      return true;
    },
    (err) => {
      console.warn(`token counts stay estimates: the tokenizer did not load (${err.message})`);
      return false;
    },
  );
}

start().catch((err) => post({ type: MSG.FAILED, phase: err.phase || "runtime", message: err.message }));
