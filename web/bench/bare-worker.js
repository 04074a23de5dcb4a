import { loadPyodide } from "./pyodide/pyodide.mjs";

loadPyodide({
  indexURL: new URL("./pyodide/", import.meta.url).href,
  lockFileURL: new URL("./pyodide/agentlite-lock.json", import.meta.url).href,
}).then(
  (pyodide) => self.postMessage(pyodide.runPython("1 + 1") === 2 ? "ready" : "failed"),
  () => self.postMessage("failed"),
);
