// The TypeScript checker's worker (docs/problems.md): TypeScript's language service over the workspace's
// TypeScript and JavaScript files, kept warm between jobs. Loaded on first use, with the standard library's
// declarations (problems/ts-lib.json, written by the build) fetched once.
import ts from "typescript-lib";
import { TsProject } from "./ts-project.js";

/** @import { CheckerJob } from "../common/checker-job.js" */

/** @type {Promise<TsProject> | null} */
let project = null;

async function start() {
  const response = await fetch(new URL("problems/ts-lib.json", self.location.href));
  if (!response.ok) throw new Error(`TypeScript's library declarations did not load (${response.status})`);
  return new TsProject(ts, await response.json());
}

self.onmessage = async (/** @type {MessageEvent<CheckerJob>} */ { data }) => {
  try {
    project ??= start();
    self.postMessage({ id: data.id, ok: true, ...(await project).run(data) });
  } catch (err) {
    project = null; // the next job starts afresh (and, told so by its reset, gets every file)
    self.postMessage({ id: data.id, ok: false, message: String(/** @type {Error} */ (err)?.message || err) });
  }
};
