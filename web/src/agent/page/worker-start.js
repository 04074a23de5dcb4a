// Starts the agent worker the moment the page begins, before the page's own bundle (app.js, ~0.8 MB)
// is fetched and parsed: Pyodide's boot is the long pole of a first visit, and the bundle's load no
// longer delays it. Messages and errors that arrive before app.js takes the worker over are kept and
// handed on (agent-client.js `adoptEarlyWorker`). A page inside a frame stops before it (frame-guard.js).
import "../../browser/frame-guard.js";
import { currentProject } from "../../projects/current.js";

// The worker is named after the open project: it opens that project's database (agent/common/database.js).
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: currentProject().worker });
/** @type {Event[]} */
const early = [];
worker.onmessage = (event) => early.push(event);
worker.onerror = (event) => {
  event.preventDefault();
  early.push(event);
};
globalThis.agentliteEarlyWorker = { worker, early };
