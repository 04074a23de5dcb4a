// The agent's IndexedDB databases, by name and schema version. A project (docs/projects.md) is one database of
// its own: the agent worker opens the open project's (agent/worker/idb.js); the page only looks into it
// (agent/page/workspace-peek.js), so both read these here. The default project keeps the names the app had
// before it had projects, so an existing workspace is the default project with nothing moved.

export const DB_NAME = "agentlite";
// Bump SCHEMA_VERSION whenever idb.js's STORES changes (new stores are created in onupgradeneeded; tabs
// still on the old version are told to close through onVersionChange).
export const SCHEMA_VERSION = 2;
export const DEFAULT_PROJECT = "default";
const WORKER_PREFIX = "agentlite-project:";

/** A project's id is safe in a database name: letters, digits, `-` and `_`, at most 64 of them. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** @param {string} base @param {string} id */
const named = (base, id) => (id === DEFAULT_PROJECT ? base : `${base}-p-${id}`);

/**
 * The names everything the open project keeps is found under: its database, its attachments' and its
 * opened folder's databases, the Web Lock around its read-modify-writes and the channel its tabs talk on.
 * @param {string} id
 */
export function projectNames(id) {
  if (!ID.test(id)) throw new Error(`not a project id: ${JSON.stringify(id)}`);
  return {
    database: named(DB_NAME, id),
    attachments: named("agentlite-attachments", id),
    folder: named("agentlite-folder", id),
    lock: named("agentlite-workspace", id),
    channel: named("agentlite-workspace", id),
  };
}

/** The agent worker's name for project `id` (a worker learns its project from `self.name`). @param {string} id */
export const workerName = (id) => `${WORKER_PREFIX}${id}`;

/** The project a worker named `name` serves: the default one for an unnamed worker. @param {string} name */
export function projectOfWorker(name) {
  const id = name.startsWith(WORKER_PREFIX) ? name.slice(WORKER_PREFIX.length) : DEFAULT_PROJECT;
  return ID.test(id) ? id : DEFAULT_PROJECT;
}
