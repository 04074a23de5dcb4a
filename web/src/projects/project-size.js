// What a project takes in this browser: the bytes of its databases' keys and values, counted by reading
// them (browsers report storage use per site only). Read-only; a database that does not exist counts 0
// and is not created.

/** @param {unknown} value */
function sizeOf(value) {
  if (typeof value === "string") return value.length;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value && typeof value === "object") {
    return Object.values(value).reduce((sum, item) => sum + sizeOf(item), 0);
  }
  return 8;
}

/** The bytes database `name` holds (0 when it does not exist). @param {string} name @returns {Promise<number>} */
export function databaseBytes(name) {
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(name);
    } catch {
      return resolve(0);
    }
    request.onupgradeneeded = () => /** @type {IDBTransaction} */ (request.transaction).abort();
    request.onerror = () => resolve(0);
    request.onsuccess = () => count(request.result).then(resolve, () => resolve(0));
  });
}

/** @param {IDBDatabase} db @returns {Promise<number>} */
function count(db) {
  db.onversionchange = () => db.close();
  const stores = Array.from(db.objectStoreNames);
  if (!stores.length) {
    db.close();
    return Promise.resolve(0);
  }
  return new Promise((resolve, reject) => {
    let total = 0;
    const tx = db.transaction(stores, "readonly");
    for (const name of stores) {
      const cursor = tx.objectStore(name).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return;
        total += sizeOf(at.key) + sizeOf(at.value);
        at.continue();
      };
    }
    tx.oncomplete = () => {
      db.close();
      resolve(total);
    };
    tx.onabort = tx.onerror = () => {
      db.close();
      reject(tx.error);
    };
  });
}

/** "12 KB", "3.4 MB", "2.1 GB". @param {number} bytes */
export function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}
