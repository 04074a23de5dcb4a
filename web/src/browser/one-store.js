// A small IndexedDB database of one object store on the page (the opened folder, a hand-off file waiting
// for its project): each call opens it, runs one transaction and closes it again, so no connection is
// held open to block a deletion or an upgrade in another tab.

/**
 * `run(mode, work)` for store `store` of database `database()` (read at each call: a project's name).
 * @param {() => string} database @param {string} store
 */
export function oneStore(database, store) {
  /** @returns {Promise<IDBDatabase>} */
  const open = () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open(database(), 1);
      request.onupgradeneeded = () => request.result.createObjectStore(store);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  /**
   * @param {IDBTransactionMode} mode
   * @param {(store: IDBObjectStore) => IDBRequest} work
   * @returns {Promise<any>}
   */
  return async function run(mode, work) {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction(store, mode);
        const request = work(tx.objectStore(store));
        tx.oncomplete = () => resolve(request.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  };
}
