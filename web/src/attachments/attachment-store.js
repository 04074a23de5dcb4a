// The originals of attached files, kept in the page's IndexedDB (the open project's attachments database,
// agent/common/database.js) under a random id the chat's message names: the chat stores what was sent (downscaled), this keeps what the
// user gave, for "open the original" and "Save to workspace". Nothing here is ever sent to the model.
import { fromBase64, toBase64 } from "../bytes.js";
import { currentProject } from "../projects/current.js";

const STORE = "files";
/** @type {Promise<IDBDatabase> | null} */
let opened = null;

function open() {
  opened ??= /** @type {Promise<IDBDatabase>} */ (
    new Promise((resolve, reject) => {
      const request = indexedDB.open(currentProject().names.attachments, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    })
  );
  return opened;
}

/**
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} act
 * @returns {Promise<T>}
 */
async function run(mode, act) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = act(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error || new Error("IndexedDB refused the request"));
    tx.onabort = () => reject(tx.error || new Error("IndexedDB aborted the request"));
  });
}

/** Keep `blob` (typed by its first bytes, never by its name); resolves to its id, or null when this
 * browser could not keep it (the attachment is still sent; it then has no original to open or save).
 * Stored as bytes, not as a Blob: WebKitGTK refuses Blobs in IndexedDB ("Error preparing Blob/File").
 * @param {Blob} blob @param {string} type */
export async function keepOriginal(blob, type) {
  const id = crypto.randomUUID();
  try {
    const bytes = await blob.arrayBuffer();
    await run("readwrite", (store) => store.put({ type, bytes }, id));
    return id;
  } catch (err) {
    console.warn("agentlite: the original of an attachment was not kept", err);
    return null;
  }
}

/** The original kept under `id`, or null (another browser, a cleared profile, an imported chat).
 * @param {string | null | undefined} id */
export async function original(id) {
  if (!id) return null;
  try {
    const kept = /** @type {{type: string, bytes: ArrayBuffer} | undefined} */ (
      await run("readonly", (store) => store.get(id))
    );
    return kept?.bytes ? new Blob([kept.bytes], { type: kept.type }) : null;
  } catch {
    return null;
  }
}

/** "Save to workspace": the original kept under `id`, handed to `write` as base64 (the workspace's
 * normal write path, so the file has a history); resolves to what `write` answers (the path).
 * @template T
 * @param {string} _name @param {string | null | undefined} id @param {(base64: string) => Promise<T>} write
 * @returns {Promise<T>} */
export async function saveAttachment(_name, id, write) {
  const blob = await original(id);
  if (!blob) throw new Error("its original is not kept in this browser");
  return write(toBase64(new Uint8Array(await blob.arrayBuffer())));
}

/** Every original this project keeps, by id, for its hand-off file (projects/handoff-flow.js).
 * @returns {Promise<Record<string, {type: string, data: string}>>} */
export async function allOriginals() {
  /** @type {Record<string, {type: string, data: string}>} */
  const found = {};
  const [ids, kept] = await Promise.all([
    run("readonly", (store) => store.getAllKeys()),
    run("readonly", (store) => store.getAll()),
  ]);
  ids.forEach((id, index) => {
    const record = /** @type {{type?: unknown, bytes?: ArrayBuffer}} */ (kept[index] || {});
    if (typeof id === "string" && record.bytes && typeof record.type === "string") {
      found[id] = { type: record.type, data: toBase64(new Uint8Array(record.bytes)) };
    }
  });
  return found;
}

/** Keep the originals a hand-off file brought, under their ids. @param {Record<string, {type: string, data: string}>} originals */
export async function keepOriginals(originals) {
  for (const [id, { type, data }] of Object.entries(originals)) {
    const bytes = fromBase64(data);
    await run("readwrite", (store) => store.put({ type, bytes: bytes.buffer }, id));
  }
}
