// The opened folder, remembered on the page: its directory handle (handles survive structured cloning,
// so a reload can ask for permission again) and, per file, what the disk held at the last sync
// ({sha, size, modified}). A database of its own: the agent worker owns the workspace's.
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

/** {handle, synced} of the opened folder, or undefined when none is open. */
export const loadFolder = () => run("readonly", (store) => store.get(KEY));
export const saveFolder = (handle, synced) => run("readwrite", (store) => store.put({ handle, synced }, KEY));
export const forgetFolder = () => run("readwrite", (store) => store.delete(KEY));
