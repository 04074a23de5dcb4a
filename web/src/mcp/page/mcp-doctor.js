// The MCP connection doctor (docs/mcp.md, Connection doctor): why a remote MCP server cannot be used from
// this page, and the one-line fix for its owner. What needs no request (a bad URL, mixed content) is
// judged here; the probes run in a worker of their own (web/src/mcp/worker/mcp-doctor-worker.js) and
// web/src/mcp/common/mcp-doctor-verdict.js turns their outcomes into the answer.
import { beforeAnyRequest, judge } from "../common/mcp-doctor-verdict.js";

/** @import { Findings, Verdict } from "../common/mcp-doctor-verdict.js" */

const DEADLINE_MS = 45_000; // every probe has its own 5 s timeout; this bounds the worker as a whole

/** @param {string} url @param {{token?: string}} options
 *  @returns {Promise<Verdict>} */
export async function diagnose(url, options = {}) {
  const early = beforeAnyRequest(url, location.protocol);
  if (early) return early;
  const found = await probeInWorker(url, options.token ?? "");
  if (found === null) {
    return {
      state: "unreachable",
      diagnosis: `the diagnosis of ${new URL(url).host} did not finish within ${DEADLINE_MS / 1000} s`,
      fix: "check that the server is running and answers HTTP at this URL",
    };
  }
  return judge(found);
}

/** The probes' findings, or null if the worker failed or outlived the deadline.
 * @param {string} url @param {string} token @returns {Promise<Findings | null>} */
function probeInWorker(url, token) {
  const worker = new Worker(new URL("./mcp-doctor-worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve) => {
    const end = (/** @type {Findings | null} */ found) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(found);
    };
    const timer = setTimeout(() => end(null), DEADLINE_MS);
    worker.onmessage = (/** @type {MessageEvent<Findings>} */ event) => end(event.data);
    worker.onerror = () => end(null);
    worker.postMessage({ url, token });
  });
}
