// The opened folder, remembered on the page: its directory handle (handles survive structured cloning,
// so a reload can ask for permission again), per file what the disk held at the last sync
// ({sha, size, modified}), and the folders it held then. A database of its own: the agent worker owns the workspace's.
/** @typedef {{ handle: FileSystemDirectoryHandle, synced: Record<string, import("./disk-mirror.js").SyncRecord>, folders?: string[] }} SavedFolder */

const DB = "agentlite-folder";
const STORE = "folder";
const KEY = "open";

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} work
 * @returns {Promise<any>}
 */
async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** {handle, synced, folders} of the opened folder (`folders` absent if saved before folders were
 * synced), or undefined when none is open.
 * @returns {Promise<SavedFolder | undefined>} */
export const loadFolder = () => run("readonly", (store) => store.get(KEY));
/**
 * @param {FileSystemDirectoryHandle} handle
 * @param {Record<string, { sha: string, size: number, modified: number }>} synced
 * @param {string[]} [folders]
 */
export const saveFolder = (handle, synced, folders = []) =>
  run("readwrite", (store) => store.put({ handle, synced, folders }, KEY));
export const forgetFolder = () => run("readwrite", (store) => store.delete(KEY));
