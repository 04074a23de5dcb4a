// The agent's own wheel, installed by writing its files into Pyodide's file system rather than with
// `loadPackage`: the package loader leaves Python holding JS objects, after which no memory snapshot can
// be taken, and it would pull in pydantic, whose shared library cannot be in a snapshot (docs/startup.md).
// So the agent's modules are imported before the snapshot; after a restore only the files are written
// again (for the modules the agent imports later), and the wheel's dependencies (pydantic) load after
// `ready`, in the background (`loadDependencies`).
import { sha256Hex } from "../../bytes.js";

/** @import { PyodideAPI } from "pyodide" */
/** @typedef {{ bytes: Uint8Array, depends: string[] }} AgentWheel the checked wheel and its dependencies */

/** @param {string} path */
const here = (path) => new URL(path, import.meta.url).href;
const LOCK_URL = () => here("./pyodide/agentlite-lock.json");
const WHEEL_PATH = "/tmp/agentlite-wheel.zip";

// Unpacks the wheel written at `path` into site-packages; drops the import system's directory caches.
const UNPACK = `
def _unpack(path):
    import importlib, os, sysconfig, zipfile
    with zipfile.ZipFile(path) as wheel:
        wheel.extractall(sysconfig.get_path("purelib"))
    os.remove(path)
    importlib.invalidate_caches()
_unpack
`;

/** @param {string} url */
async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
  return response;
}

/**
 * The wheel's bytes (checked against the lock's sha256) and the packages it depends on.
 * @returns {Promise<AgentWheel>}
 */
export async function fetchAgentWheel() {
  const lock = await (await fetchOk(LOCK_URL())).json();
  const entry = lock.packages?.agentlite;
  if (!entry) throw new Error("agentlite is missing from the package lock");
  const url = here(`./pyodide/${entry.file_name}`);
  const bytes = new Uint8Array(await (await fetchOk(url)).arrayBuffer());
  if ((await sha256Hex(bytes)) !== entry.sha256) throw new Error(`${entry.file_name}: sha256 differs`);
  return { bytes, depends: entry.depends || [] };
}

/**
 * Writes the wheel's files into site-packages (Python is left holding no JS object).
 * @param {PyodideAPI} pyodide
 * @param {AgentWheel} wheel
 */
export function installAgentWheel(pyodide, wheel) {
  pyodide.FS.writeFile(WHEEL_PATH, wheel.bytes);
  const unpack = pyodide.runPython(UNPACK);
  try {
    unpack(WHEEL_PATH);
  } finally {
    unpack.destroy();
  }
}

/**
 * Loads the wheel's dependencies with the package loader (sha256-checked); rejects on any error.
 * @param {PyodideAPI} pyodide
 * @param {AgentWheel} wheel
 */
export async function loadDependencies(pyodide, wheel) {
  // A wrong sha256 or a missing file does not reject loadPackage: collect its error messages instead.
  /** @type {string[]} */
  const errors = [];
  await pyodide.loadPackage(wheel.depends, { messageCallback: () => {}, errorCallback: (msg) => errors.push(msg) });
  if (errors.length) throw new Error(errors.join("; "));
}
