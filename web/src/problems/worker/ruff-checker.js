// The Python checker's worker (docs/problems.md): Ruff's web build, its WebAssembly (problems/ruff.wasm,
// copied by the build) compiled on the first job.
import init, { PositionEncoding, Workspace } from "@astral-sh/ruff-wasm-web";
import { RuffChecks } from "./ruff-checks.js";

/** @import { CheckerJob } from "../common/checker-job.js" */

/** @type {Promise<RuffChecks> | null} */
let checks = null;

async function start() {
  await init({ module_or_path: new URL("problems/ruff.wasm", self.location.href) });
  return new RuffChecks({ Workspace, PositionEncoding });
}

self.onmessage = async (/** @type {MessageEvent<CheckerJob>} */ { data }) => {
  try {
    checks ??= start();
    self.postMessage({ id: data.id, ok: true, ...(await checks).run(data) });
  } catch (err) {
    checks = null;
    self.postMessage({ id: data.id, ok: false, message: String(/** @type {Error} */ (err)?.message || err) });
  }
};
