// A short-lived worker that takes the Pyodide memory snapshot for the next visit: a Pyodide of its own
// boots, installs the agent's wheel (the bytes the agent worker checked), imports the snapshot prefix
// and copies its heap. It runs after the agent is ready, so a first visit's `ready` does not wait for
// the prefix imports; its bytes go back to the agent worker, which stores them (docs/startup.md).
import { version } from "./pyodide/pyodide.mjs";
import { makeSnapshot } from "./start-path.js";

self.onmessage = async ({ data }) => {
  try {
    const { snapshot, ms } = await makeSnapshot(data.wheel);
    self.postMessage({ ok: true, version, bytes: snapshot, ms }, [snapshot.buffer]);
  } catch (/** @type {any} */ err) {
    self.postMessage({ ok: false, reason: String(err?.message || err) });
  }
};
