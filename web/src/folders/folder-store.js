// The opened folder, remembered on the page: its directory handle (handles survive structured cloning,
// so a reload can ask for permission again), per file what the disk held at the last sync
// ({sha, size, modified}), and the folders it held then. A database of its own: the agent worker owns the workspace's.
const DB = "agentlite-folder";
const STORE = "folder";
const KEY = "open";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

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
 * synced), or undefined when none is open. */
export const loadFolder = () => run("readonly", (store) => store.get(KEY));
export const saveFolder = (handle, synced, folders = []) =>
  run("readwrite", (store) => store.put({ handle, synced, folders }, KEY));
export const forgetFolder = () => run("readwrite", (store) => store.delete(KEY));
