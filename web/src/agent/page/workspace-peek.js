// The workspace's file list read straight from IndexedDB on the main thread, read-only, so the file
// tree is painted before Python is ready. The agent worker owns the database (web/src/agent/worker/idb.js):
// this never creates it, never upgrades it and never writes; any surprise just means "nothing to show
// yet" and the worker's listing follows once it is up.
import { DB_NAME, SCHEMA_VERSION } from "../common/database.js";

/** A file or folder of the listing. @typedef {{path: string, kind: "dir" | "file"}} PeekEntry */

/** Resolves to [{path, kind}] sorted by path (like `vfs.list("/", recursive)`), or null.
 * @returns {Promise<PeekEntry[] | null>} */
export function peekFiles(name = DB_NAME) {
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(name, SCHEMA_VERSION);
    } catch {
      return resolve(null);
    }
    // No database yet (or an older schema): leave creating and upgrading to the worker.
    request.onupgradeneeded = () => /** @type {IDBTransaction} */ (request.transaction).abort();
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
    request.onsuccess = () => readEntries(request.result, resolve);
  });
}

/** @param {IDBDatabase} db @param {(entries: PeekEntry[] | null) => void} resolve */
function readEntries(db, resolve) {
  db.onversionchange = () => db.close();
  const done = (/** @type {PeekEntry[] | null} */ value) => {
    db.close();
    resolve(value);
  };
  try {
    const read = db.transaction("entries", "readonly").objectStore("entries").getAll();
    read.onsuccess = () => done(listing(read.result));
    read.onerror = () => done(null);
  } catch {
    done(null);
  }
}

// Entry records (see py/agentlite/workspace/records.py): the live files and folders below the root.
/** @param {(string | BufferSource)[]} values */
function listing(values) {
  /** @type {PeekEntry[]} */
  const found = [];
  for (const value of values) {
    try {
      const entry = JSON.parse(typeof value === "string" ? value : new TextDecoder().decode(value));
      if (entry.live && typeof entry.path === "string" && entry.path !== "/") {
        found.push({ path: entry.path, kind: entry.kind === "dir" ? "dir" : "file" });
      }
    } catch {
      // a record this page cannot read: the worker's listing will show what it is
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
