// A hand-off file waiting for the project it opens as: the page that accepted it keeps its (checked,
// unsealed) bytes here under the new project's id and opens that project; the new project's page writes
// them into its own, still empty database (projects/handoff-flow.js) and forgets them. Kept as bytes, not
// as a Blob (WebKitGTK refuses Blobs in IndexedDB). A database of its own, shared by every project.

import { oneStore } from "../browser/one-store.js";

const run = oneStore(() => "agentlite-pending", "files");

/** Keep `bytes` for project `id`. @param {string} id @param {Uint8Array} bytes */
export const keepPending = (id, bytes) => run("readwrite", (store) => store.put(bytes, id));

/** The bytes waiting for project `id`, or null. @param {string} id @returns {Promise<Uint8Array | null>} */
export async function pendingFor(id) {
  const found = await run("readonly", (store) => store.get(id));
  return found instanceof Uint8Array ? found : found ? new Uint8Array(found) : null;
}

/** @param {string} id */
export const forgetPending = (id) => run("readwrite", (store) => store.delete(id));
