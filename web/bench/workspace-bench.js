// The workspace benchmark page: Pyodide with the agentlite wheel and the IndexedDB module, on the main
// thread; runs buildsys/bench/workspace_probes.py (served beside this page by buildsys/bench/bench_workspace.py).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import * as idb from "./idb.js";

const here = (path) => new URL(path, import.meta.url).href;

async function start() {
  const pyodide = await loadPyodide({
    indexURL: here("../pyodide/"),
    lockFileURL: here("../pyodide/agentlite-lock.json"),
  });
  await pyodide.loadPackage(["agentlite", "dulwich"]); // dulwich: git_export (the worker loads it on first use)
  pyodide.registerJsModule("agentlite_idb", idb);
  for (const name of ["import_bombs.py", "handoff_probes.py", "stage_probes.py", "workspace_probes.py"]) {
    pyodide.FS.writeFile(`/home/pyodide/${name}`, await (await fetch(here(`./${name}`))).text());
  }
  return pyodide.pyimport("workspace_probes");
}

const probes = start();
/** Run the named probes; resolves to their figures as a JSON string. */
window.runProbes = async (names) => (await probes).run_in_browser(JSON.stringify(names));
window.benchReady = true;
