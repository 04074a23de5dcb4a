// The agent worker: starts Pyodide in named phases, then hands every message to Python.
// Platform edge: the only JS that talks to Pyodide. Python answers through `post`.
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

async function phase(name, progress, work) {
  post({ type: MSG.PHASE, phase: name, progress });
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no progress for ${PHASE_TIMEOUT_MS / 1000} s`)), PHASE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work(), hung]);
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
      if (/^Loaded /.test(msg)) post({ type: MSG.PHASE, phase: "packages", progress: 0.45 + 0.05 * ++loaded });
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
  post({ type: MSG.PHASE, phase: "ready", progress: 1 });
  post({ type: MSG.READY });
  for (const message of early.splice(0)) service.handle(JSON.stringify(message));
}

start().catch((err) => post({ type: MSG.FAILED, phase: err.phase || "runtime", message: err.message }));
