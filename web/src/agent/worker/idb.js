// IndexedDB for the workspace, registered with Pyodide as the JS module `agentlite_idb`
// (`pyodide.registerJsModule("agentlite_idb", module)`) and used by agentlite/browser/idb_storage.py.
//
// Batching happens here: an IndexedDB transaction ends at the first Python `await`, so Python hands a
// whole batch over at once and `commit` writes it in ONE readwrite transaction ({durability: "strict"}).
// Values are JSON strings (workspace records) or Uint8Array (blobs). No function rejects: each resolves to
// a result, and failures come back as `{ok: false, code, message}` with code "quota" (storage full),
// "stale" (the guard value changed: another tab wrote first), "closed" (the database was closed because
// a newer version of the app opened it) or "error".
//
// A small reserve of storage is held in a database of its own. When IndexedDB itself refuses a commit
// for quota, the origin is at its limit (Chromium counts more than the bytes written, so usage can end
// above the quota) and no write of any size would pass; the reserve is then deleted, which gives its
// space back at once, so that small changes (an edit, an undo) are still saved while the user makes room.

import { DB_NAME, DEFAULT_PROJECT, projectNames, SCHEMA_VERSION } from "../common/database.js";

export { DB_NAME, SCHEMA_VERSION };
/** The open project's database, lock and channel (`useProject`; the default project's until then). */
let project = projectNames(DEFAULT_PROJECT);

/** Serve project `id` (agent/common/database.js): its database, lock and channel become the defaults
 * below. Called once by the worker before Python opens the storage. @param {string} id */
export function useProject(id) {
  project = projectNames(id);
}
// A change to STORES bumps SCHEMA_VERSION (../common/database.js). Keep STORES in step with
// STORES in py/agentlite/workspace/storage.py.
// biome-ignore format: one line per owner
export const STORES = Object.freeze([
  // the workspace (agentlite.workspace)
  "meta", "entries", "versions", "blobs", "commits", "turns",
  // chat tabs and long-term memory (agentlite.engine), the chats' stages (agentlite.stage)
  "chats", "memory", "stage",
]);
export const RESERVE_DB = "agentlite-reserve";
const RESERVE_BYTES = 128 * 1024;

/** @typedef {{ ok: false, code: string, message: string }} Failure */
/**
 * @template [T=unknown]
 * @typedef {{ ok: true, value: T }} Success
 */
/**
 * What every function here resolves to (a Success or a Failure; one loose shape, so `!result.ok` narrows
 * it with or without strict null checks).
 * @template [T=unknown]
 * @typedef {{ ok: boolean, value?: T, code?: string, message?: string }} Outcome
 */
/** @typedef {IDBTransaction & { __failure?: Failure }} Transaction */
/** @typedef {(tx: Transaction, set: (value: unknown) => unknown) => void} Work */
/** @typedef {string | { blob: number } | null} PutValue */
/**
 * The batch `commit` receives from Python, as JSON.
 * @typedef {{
 *   clears: string[],
 *   deletes: [string, IDBValidKey][],
 *   puts: [string, IDBValidKey, PutValue][],
 *   guard: [string, IDBValidKey, unknown] | null,
 *   spans?: [number, number][],
 * }} Batch
 */
/** @typedef {(detailJson: string) => void} Callback */

/** @type {IDBDatabase | null} */
let db = null;
/** @type {string | null} */
let closedReason = null;
let reserveHeld = Promise.resolve(false);
/** @type {Set<Callback>} */
const versionChangeCallbacks = new Set();

/** @type {(code: string, message: unknown) => Failure} */
const failure = (code, message) => ({ ok: false, code, message: String(message) });
/**
 * @template T
 * @param {T} value
 * @returns {Success<T>}
 */
const ok = (value) => ({ ok: true, value });
const QUOTA_FULL = failure("quota", "browser storage is full (quota exceeded)");
const CHECK_OVER_BYTES = 64 * 1024; // batches above this are checked against the quota first

/** @param {any} error a DOMException, an Error or null */
function describe(error) {
  if (!error) return failure("error", "the storage operation failed");
  // Chromium reports a full disk as QuotaExceededError, on the transaction or wrapped in an AbortError.
  const text = `${error.name || ""} ${error.message || ""}`;
  if (error.name === "QuotaExceededError" || /quota/i.test(text)) {
    return QUOTA_FULL;
  }
  return failure("error", text.trim() || "the storage operation failed");
}

/** @param {IDBDatabase} database */
function upgrade(database) {
  for (const name of STORES) {
    if (!database.objectStoreNames.contains(name)) database.createObjectStore(name);
  }
}

/**
 * Open (or create) the database; resolves to {ok, value: {version}} or a failure.
 * @returns {Promise<Outcome<{ version: number }>>}
 */
export function open(name = project.database) {
  if (db) return Promise.resolve(ok({ version: db.version }));
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(name, SCHEMA_VERSION);
    } catch (error) {
      resolve(describe(error));
      return;
    }
    request.onupgradeneeded = () => upgrade(request.result);
    request.onblocked = () => notify({ reason: "blocked" });
    request.onerror = () => resolve(describe(request.error));
    request.onsuccess = () => {
      db = request.result;
      closedReason = null;
      db.onversionchange = (event) => {
        // A newer schema is being opened in another tab: step aside so it can upgrade.
        /** @type {IDBDatabase} */ (db).close();
        db = null;
        closedReason = "the app was updated in another tab; reload this page";
        notify({ reason: "versionchange", newVersion: event.newVersion });
      };
      db.onclose = () => {
        db = null;
        closedReason = closedReason || "the browser closed the database";
        notify({ reason: "closed" });
      };
      reserveHeld = holdReserve();
      resolve(ok({ version: db.version }));
    };
  });
}

/** @param {{ reason: string, newVersion?: number | null }} detail */
function notify(detail) {
  const message = JSON.stringify(detail);
  for (const callback of versionChangeCallbacks) {
    try {
      callback(message);
    } catch (error) {
      console.error("agentlite_idb: version change callback failed", error);
    }
  }
}

/**
 * Call `callback(jsonDetail)` when the connection must close (newer schema elsewhere). Returns a remover.
 * @param {Callback} callback
 */
export function onVersionChange(callback) {
  versionChangeCallbacks.add(callback);
  return () => versionChangeCallbacks.delete(callback);
}

export function close() {
  if (db) db.close();
  db = null;
  closedReason = "closed";
}

/**
 * @param {string[]} stores
 * @param {IDBTransactionMode} mode
 * @returns {Transaction}
 */
function transaction(stores, mode) {
  if (!db) throw Object.assign(new Error(closedReason || "the database is not open"), { code: "closed" });
  return db.transaction(stores, mode, mode === "readwrite" ? { durability: "strict" } : undefined);
}

/**
 * @param {string[]} stores
 * @param {IDBTransactionMode} mode
 * @param {Work} work
 * @returns {Promise<Outcome>}
 */
function run(stores, mode, work) {
  return new Promise((resolve) => {
    /** @type {Transaction} */
    let tx;
    /** @type {unknown} */
    let result;
    try {
      tx = transaction(stores, mode);
    } catch (/** @type {any} */ error) {
      resolve(error.code === "closed" ? failure("closed", error.message) : describe(error));
      return;
    }
    try {
      work(tx, (value) => (result = value));
    } catch (error) {
      abort(tx, describe(error));
    }
    tx.oncomplete = () => resolve(ok(result));
    tx.onabort = () => resolve(tx.__failure || describe(tx.error)); // a failed request aborts the whole tx
  });
}

/**
 * @param {Transaction} tx
 * @param {Failure} reason
 */
function abort(tx, reason) {
  tx.__failure = tx.__failure || reason;
  try {
    tx.abort();
  } catch (_error) {
    // already finished or aborting
  }
}

/** @type {(value: unknown) => unknown} */
const toValue = (value) => (value === undefined || value === null ? undefined : value);

/**
 * One value (string | Uint8Array | undefined).
 * @param {string} store
 * @param {IDBValidKey} key
 */
export function get(store, key) {
  return run([store], "readonly", (tx, set) => {
    const request = tx.objectStore(store).get(key);
    request.onsuccess = () => set(toValue(request.result));
  });
}

/**
 * Values for a JSON array of keys, in order, read in one transaction.
 * @param {string} store
 * @param {string} keysJson
 */
export function getMany(store, keysJson) {
  /** @type {IDBValidKey[]} */
  const keys = JSON.parse(keysJson);
  const values = new Array(keys.length);
  return run([store], "readonly", (tx, set) => {
    const objects = tx.objectStore(store);
    keys.forEach((key, index) => {
      const request = objects.get(key);
      request.onsuccess = () => (values[index] = toValue(request.result));
    });
    set(values);
  });
}

/**
 * Every key of a store, sorted.
 * @param {string} store
 */
export function keys(store) {
  return run([store], "readonly", (tx, set) => {
    const request = tx.objectStore(store).getAllKeys();
    request.onsuccess = () => set(request.result);
  });
}

/**
 * @param {IDBValidKey | null | undefined} start
 * @param {IDBValidKey | null | undefined} stop
 */
function range(start, stop) {
  if (start != null && stop != null) return IDBKeyRange.bound(start, stop, false, true);
  if (start != null) return IDBKeyRange.lowerBound(start);
  if (stop != null) return IDBKeyRange.upperBound(stop, true);
  return undefined;
}

/**
 * [keys, values] with start <= key < stop (null: unbounded), sorted by key.
 * @param {string} store
 * @param {IDBValidKey | null} start
 * @param {IDBValidKey | null} stop
 */
export function scan(store, start, stop) {
  return run([store], "readonly", (tx, set) => {
    const objects = tx.objectStore(store);
    const bounds = range(start, stop);
    const keyRequest = objects.getAllKeys(bounds);
    const valueRequest = objects.getAll(bounds);
    valueRequest.onsuccess = () => set([keyRequest.result, valueRequest.result]);
  });
}

/**
 * Write a batch in ONE readwrite transaction. `batchJson` is
 * {clears: [store], deletes: [[store, key]], puts: [[store, key, value | {blob: index}]], guard: [store, key, expected] | null,
 * spans?: [[start, end]]} and `blobs` an Array of Uint8Array referenced by index — or, when the batch has
 * `spans`, ONE Uint8Array holding every blob, blob `i` its bytes spans[i][0] to spans[i][1] (one copy
 * across from Python for any number of blobs). The guard is read first, inside the same
 * transaction: when the stored value differs, nothing is written and the result is code "stale".
 * @param {string} batchJson
 * @param {Iterable<Uint8Array> | ArrayLike<Uint8Array> | Uint8Array | null | undefined} blobs
 * @returns {Promise<Outcome>}
 */
export function commit(batchJson, blobs) {
  /** @type {Batch} */
  const batch = JSON.parse(batchJson);
  const packed = batch.spans && blobs instanceof Uint8Array ? blobs : null;
  const buffers = packed // own copies before any await
    ? (batch.spans || []).map(([start, end]) => packed.slice(start, end))
    : Array.from(/** @type {Iterable<Uint8Array>} */ (blobs || []), (buffer) => buffer.slice());
  const names = new Set([...batch.clears, ...batch.deletes.map((d) => d[0]), ...batch.puts.map((p) => p[0])]);
  if (batch.guard) names.add(batch.guard[0]);
  if (names.size === 0) return Promise.resolve(ok(null));
  return roomFor(batch, buffers).then(async (room) => {
    if (!room) return QUOTA_FULL;
    const result = await writeBatch(batch, buffers, names);
    if (!result.ok && result.code === "quota") await releaseReserve();
    return result;
  });
}

/**
 * Resolves to whether the reserve is held: it is written when missing and when it still fits.
 * @returns {Promise<boolean>}
 */
function holdReserve() {
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(RESERVE_DB, 1);
    } catch (_error) {
      resolve(false);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore("reserve");
    request.onerror = () => resolve(false);
    request.onsuccess = () => {
      const reserve = request.result;
      const tx = reserve.transaction("reserve", "readwrite");
      const store = tx.objectStore("reserve");
      const count = store.count();
      count.onsuccess = () => {
        if (count.result === 0) store.put(randomBytes(RESERVE_BYTES), "reserve");
      };
      tx.oncomplete = () => resolve(true);
      tx.onabort = () => resolve(false);
      reserve.close(); // takes effect once the transaction is done
    };
  });
}

/**
 * Delete the reserve database when this tab holds it. Resolves once the browser counts the space as
 * free again (its usage figure can lag the deletion a little; it is polled for at most a second).
 */
async function releaseReserve() {
  if (!(await reserveHeld)) return;
  reserveHeld = Promise.resolve(false);
  const before = await usage();
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(RESERVE_DB);
    request.onsuccess = request.onerror = request.onblocked = () => resolve(undefined);
  });
  for (let tries = 0; before !== null && tries < 20 && /** @type {number} */ (await usage()) >= before; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function usage() {
  try {
    const { usage: used } = await navigator.storage.estimate();
    return typeof used === "number" ? used : null;
  } catch (_error) {
    return null;
  }
}

// Random bytes, so that no compression in the browser shrinks the reserve below its nominal size.
/** @param {number} size */
function randomBytes(size) {
  const bytes = new Uint8Array(size);
  const random = /** @type {((array: Uint8Array<ArrayBuffer>) => unknown) | undefined} */ (
    globalThis.crypto?.getRandomValues?.bind(globalThis.crypto)
  );
  for (let at = 0; random && at < size; at += 65536) random(bytes.subarray(at, at + 65536));
  return bytes;
}

/**
 * Whether a large batch fits the origin's remaining quota. Refusing it up front matters: a write that
 * IndexedDB aborts for quota can leave its bytes counted against the origin until a compaction, so
 * even a later small write would fail.
 * @param {Batch} batch
 * @param {Uint8Array[]} buffers
 */
async function roomFor(batch, buffers) {
  let bytes = buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  for (const [, , value] of batch.puts) if (typeof value === "string") bytes += value.length * 2;
  if (bytes < CHECK_OVER_BYTES || !globalThis.navigator?.storage?.estimate) return true;
  try {
    const { usage = 0, quota = Infinity } = await navigator.storage.estimate();
    return usage + bytes <= quota;
  } catch {
    return true; // no estimate: let IndexedDB decide
  }
}

/**
 * @param {Batch} batch
 * @param {Uint8Array[]} buffers
 * @param {Set<string>} names
 */
function writeBatch(batch, buffers, names) {
  return run([...names], "readwrite", (tx) => {
    const write = () => {
      for (const store of batch.clears) tx.objectStore(store).clear();
      for (const [store, key] of batch.deletes) tx.objectStore(store).delete(key);
      for (const [store, key, value] of batch.puts) {
        const stored = value !== null && typeof value === "object" ? buffers[value.blob] : value;
        tx.objectStore(store).put(stored, key);
      }
    };
    if (!batch.guard) {
      write();
      return;
    }
    const [store, key, expected] = batch.guard;
    const request = tx.objectStore(store).get(key);
    request.onsuccess = () => {
      const current = toValue(request.result);
      if ((current === undefined ? null : current) !== expected) {
        abort(tx, failure("stale", "the workspace was changed in another tab"));
        return;
      }
      try {
        write();
      } catch (error) {
        abort(tx, describe(error));
      }
    };
  });
}

/**
 * Take the cross-tab Web Lock `name`; resolves to a function that releases it. Held around every
 * read-modify-write of the workspace, so two tabs never plan changes on the same state at once.
 * Without navigator.locks (very old browsers) the release function does nothing; the commit guard
 * still refuses a stale write.
 */
export function acquireLock(name = project.lock) {
  if (!globalThis.navigator || !navigator.locks) return Promise.resolve(() => undefined);
  return new Promise((acquired) => {
    navigator.locks.request(name, () => new Promise((release) => acquired(() => release(undefined))));
  });
}

// Persistent storage is requested by the page (web/src/browser/persistence.js): navigator.storage.persist()
// exists only on Window.

/** {usage, quota} in bytes as JSON, or "{}" when unknown. */
export async function estimate() {
  try {
    const { usage, quota } = await navigator.storage.estimate();
    return JSON.stringify({ usage, quota });
  } catch (_error) {
    return "{}";
  }
}

// Other tabs of the app hear of every stored change on this channel, so they reload the workspace.
/** @type {BroadcastChannel | null} */
let channel = null;

function tabsChannel() {
  if (!channel && typeof BroadcastChannel === "function") channel = new BroadcastChannel(project.channel);
  return channel;
}

/**
 * Tell the other tabs that the workspace changed (`detailJson`: a JSON string).
 * @param {string} detailJson
 */
export function announce(detailJson) {
  const tabs = tabsChannel();
  if (tabs) tabs.postMessage(String(detailJson));
}

/**
 * Call `callback(detailJson)` when another tab announces a change. Returns a remover.
 * @param {Callback} callback
 */
export function onAnnounce(callback) {
  const tabs = tabsChannel();
  if (!tabs) return () => undefined;
  /** @param {MessageEvent} event */
  const listener = (event) => callback(String(event.data));
  tabs.addEventListener("message", listener);
  return () => tabs.removeEventListener("message", listener);
}

/** Delete the whole database and the reserve (tests, "reset the app"). */
export async function destroy(name = project.database) {
  close();
  reserveHeld = Promise.resolve(true); // whichever tab wrote it
  await releaseReserve();
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve(ok(null));
    request.onerror = () => resolve(describe(request.error));
    request.onblocked = () => resolve(failure("error", "another tab still has the database open"));
  });
}
