// Runs a Python script in Pyodide under Node with the real web/src/agent/worker/idb.js registered as
// `agentlite_idb`, over fake-indexeddb: the browser storage glue without a browser.
// usage: node idb_harness.mjs <fake-indexeddb auto.js path> <repo root> <script.py>
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [fakeIndexedDb, root, script] = process.argv.slice(2);
await import(pathToFileURL(fakeIndexedDb).href);
const { loadPyodide } = await import(pathToFileURL(path.join(root, "web/node_modules/pyodide/pyodide.mjs")).href);
const idb = await import(pathToFileURL(path.join(root, "web/src/agent/worker/idb.js")).href);

const pyodide = await loadPyodide({ indexURL: path.join(root, "web/node_modules/pyodide") + "/" });
pyodide.registerJsModule("agentlite_idb", idb);

function copyTree(source, target) {
  pyodide.FS.mkdirTree(target);
  for (const name of fs.readdirSync(source)) {
    const from = path.join(source, name);
    if (fs.statSync(from).isDirectory()) {
      if (name !== "__pycache__") copyTree(from, `${target}/${name}`);
    } else if (name.endsWith(".py")) {
      pyodide.FS.writeFile(`${target}/${name}`, fs.readFileSync(from));
    }
  }
}
copyTree(path.join(root, "py/agentlite"), "/home/pyodide/lib/agentlite");
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
try {
  await pyodide.runPythonAsync(fs.readFileSync(script, "utf8"));
  console.log("HARNESS OK");
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
