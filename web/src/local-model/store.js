// Where the model in the page is kept between visits: the origin private file system (OPFS), one folder
// with the GGUF file and a small JSON of its facts. The browser counts it against the origin's quota and
// removes it with the site's data; "Remove" deletes it at once. An engine without a writable OPFS (the
// WebKitGTK of the engine suite) keeps the model in the tab's memory for the visit instead (`canStore`).
/** @import { ModelFacts } from "./gguf-header.js" */
const FOLDER = "local-model";
const MODEL_FILE = "model.gguf";
const FACTS_FILE = "model.json";

/** Whether this browser can keep the model between visits: OPFS with writable files. */
export function canStore() {
  return typeof navigator.storage?.getDirectory === "function" && "createWritable" in FileSystemFileHandle.prototype;
}

/** @param {boolean} [create] */
async function folder(create = false) {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(FOLDER, { create });
}

/** The stored model: {file, facts}, or null when none is stored (or the storage cannot be read).
 * @returns {Promise<{file: File, facts: ModelFacts} | null>} */
export async function storedModel() {
  try {
    const dir = await folder();
    /** @type {ModelFacts} */
    const facts = JSON.parse(await (await (await dir.getFileHandle(FACTS_FILE)).getFile()).text());
    const file = await (await dir.getFileHandle(MODEL_FILE)).getFile();
    return file.size === facts.size ? { file, facts } : null; // a copy cut short is not a model
  } catch {
    return null;
  }
}

/** Store the bytes of `source` (a ReadableStream of Uint8Array) as the model, reporting bytes written;
 * resolves to the stored File. Its facts are written after it (`writeFacts`), so a copy cut short is never
 * found.
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} source @param {(written: number) => void} onBytes */
export async function storeModel(source, onBytes) {
  await removeModel();
  const dir = await folder(true);
  const writable = await (await dir.getFileHandle(MODEL_FILE, { create: true })).createWritable();
  let written = 0;
  const reader = source.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await writable.write(value);
      written += value.byteLength;
      onBytes(written);
    }
    await writable.close();
  } catch (err) {
    await writable.abort().catch(() => {});
    throw err;
  }
  return (await dir.getFileHandle(MODEL_FILE)).getFile();
}

// The most a tab is asked to hold in memory: the compat build's limit for one file (docs/local-model.md).
export const MEMORY_COPY_MAX = 2 ** 31;

/** The bytes of `source` as a Blob in memory, for this visit only, reporting bytes read; refuses a file
 * past MEMORY_COPY_MAX (the reading stops there, nothing more is held).
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} source @param {(read: number) => void} onBytes */
export async function memoryCopy(source, onBytes) {
  /** @type {Uint8Array<ArrayBuffer>[]} */
  const chunks = [];
  let read = 0;
  const reader = source.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > MEMORY_COPY_MAX) {
      await reader.cancel();
      throw new Error("the model is larger than 2 GB, more than this browser can hold without storing it");
    }
    chunks.push(value);
    onBytes(read);
  }
  return new Blob(chunks);
}

/** The facts of the stored model (with its `size`, which must match the stored file's).
 * @param {ModelFacts} facts */
export async function writeFacts(facts) {
  const dir = await folder(true);
  const writable = await (await dir.getFileHandle(FACTS_FILE, { create: true })).createWritable();
  await writable.write(JSON.stringify(facts));
  await writable.close();
}

export async function removeModel() {
  if (!canStore()) return;
  const root = await navigator.storage.getDirectory();
  await root.removeEntry(FOLDER, { recursive: true }).catch(() => {});
}
