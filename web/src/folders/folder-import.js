// A local folder into the workspace: its files listed (from a folder input or a drop), then read and sent
// to the worker in batches (`vfs.importStart`, `vfs.importAdd` …, `vfs.importFinish`), so a folder of
// 10,000 files never freezes the page and still lands as ONE recorded change.
import LIMITS from "../limits.json";

const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 500;
const BUDGET = LIMITS.imports;

/** A call to the agent worker (AgentClient.call): its answer is the worker's JSON.
 * @typedef {(method: string, args?: object) => Promise<any>} Call */
/** @typedef {{ path: string, file: File }} Item */
/** @typedef {{ files: number, bytes: number, totalFiles: number, totalBytes: number }} Progress */

/** Throws, before a byte is read, when the files (`[path, {size}]`: their `File.size`, which the disk
 * states) are more than one import may bring in: the worker's own limits (docs/folders.md).
 * @param {[string, { size: number }][]} files */
export function checkBudget(files) {
  for (const [path, { size }] of files) {
    if (size > BUDGET.file_bytes)
      throw new Error(
        `${path} is ${megabytes(size)}; the limit is ${megabytes(BUDGET.file_bytes)} per file. Nothing was imported.`,
      );
  }
  checkTotals(files);
}

/** Throws when the files are more, in number or in bytes, than one import may bring in (an opened folder's
 * sync skips a single file over the per-file limit instead: web/src/disk-mirror.js).
 * @param {[string, { size: number }][]} files */
export function checkTotals(files) {
  let count = 0;
  let total = 0;
  for (const [, { size }] of files) {
    count += 1;
    total += size;
    if (count > BUDGET.files)
      throw new Error(`more than ${BUDGET.files.toLocaleString("en")} files. Nothing was imported.`);
  }
  if (total > BUDGET.total_bytes) {
    throw new Error(
      `${megabytes(total)} of files; one import takes at most ${megabytes(BUDGET.total_bytes)}. Nothing was imported.`,
    );
  }
}

/** The largest file one import takes (bytes): a larger one is never read. */
export const FILE_BYTES = BUDGET.file_bytes;

const megabytes = (/** @type {number} */ bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The files of an `<input webkitdirectory>`: their paths without the chosen folder's own name.
 * @param {FileList | File[]} fileList
 * @returns {Item[]} */
export function itemsFromInput(fileList, base = "/") {
  return Array.from(fileList, (file) => {
    const relative = (file.webkitRelativePath || file.name).split("/").slice(1).join("/") || file.name;
    return { path: joinPath(base, relative), file };
  });
}

/** The files and folders of a drop (DataTransfer items, read while the drop event runs): a dropped
 * folder's contents land in `base`, a dropped file lands there itself. Returns {items, folders}.
 * @param {DataTransferItemList | DataTransferItem[]} dataTransferItems */
export async function itemsFromDrop(dataTransferItems, base = "/") {
  // Both taken now: the items are emptied once the drop event has run. A file with no entry (a drop
  // made by a script) comes as the file itself.
  const dropped = Array.from(dataTransferItems, (item) => ({
    entry: item.webkitGetAsEntry?.(),
    file: item.getAsFile(),
  }));
  /** @type {Item[]} */
  const items = [];
  /** @type {string[]} */
  const folders = [];
  for (const { entry, file } of dropped) {
    if (entry?.isDirectory) await walk(/** @type {FileSystemDirectoryEntry} */ (entry), base, items, folders);
    else if (entry)
      items.push({ path: joinPath(base, entry.name), file: await fileOf(/** @type {FileSystemFileEntry} */ (entry)) });
    else if (file) items.push({ path: joinPath(base, file.name), file });
  }
  return { items, folders };
}

/**
 * @param {FileSystemDirectoryEntry} directory
 * @param {string} path
 * @param {Item[]} items
 * @param {string[]} folders
 */
async function walk(directory, path, items, folders) {
  for (const entry of await allEntries(directory)) {
    const inner = joinPath(path, entry.name);
    if (entry.isDirectory) {
      folders.push(inner);
      await walk(/** @type {FileSystemDirectoryEntry} */ (entry), inner, items, folders);
    } else {
      items.push({ path: inner, file: await fileOf(/** @type {FileSystemFileEntry} */ (entry)) });
    }
  }
}

/** A directory reader answers in pieces (100 at a time in Chromium) until it answers with none.
 * @param {FileSystemDirectoryEntry} directory */
async function allEntries(directory) {
  const reader = directory.createReader();
  /** @type {FileSystemEntry[]} */
  const all = [];
  for (;;) {
    /** @type {FileSystemEntry[]} */
    const some = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!some.length) return all;
    all.push(...some);
  }
}

const fileOf = (/** @type {FileSystemFileEntry} */ entry) =>
  /** @type {Promise<File>} */ (new Promise((resolve, reject) => entry.file(resolve, reject)));

/** @param {string} base @param {string} relative */
function joinPath(base, relative) {
  return `${base === "/" ? "" : base}/${relative}`;
}

/** Send `items` ([{path, file}]) and `folders` as one import; `onProgress({files, bytes, totalFiles,
 * totalBytes})` after each batch; `finish`: more of `vfs.importFinish` (`disk`, `deleted`). Returns the
 * recorded change. A failure cancels the import.
 * @param {Call} call
 * @param {Item[]} items
 * @param {string[]} folders
 * @param {(progress: Progress) => void} [onProgress]
 * @param {{ disk?: boolean, deleted?: string[] }} [finish] */
export async function sendFolder(call, items, folders, onProgress = (_progress) => {}, finish = {}) {
  checkBudget(items.map(({ path, file }) => [path, file]));
  const totalBytes = items.reduce((sum, item) => sum + item.file.size, 0);
  const progress = { files: 0, bytes: 0, totalFiles: items.length, totalBytes };
  const id = await call("importStart");
  try {
    const all = batches(items);
    let reading = readBatch(all, 0);
    for (let index = 0; ; index += 1) {
      const batch = await reading;
      if (!batch) break;
      reading = readBatch(all, index + 1); // read the next batch while the worker stores this
      await call("importAdd", { id, files: batch.files, data: batch.data, folders: index === 0 ? folders : [] });
      Object.assign(progress, { files: progress.files + batch.files.length, bytes: progress.bytes + batch.bytes });
      onProgress({ ...progress });
    }
    if (!items.length) await call("importAdd", { id, files: [], folders });
    return await call("importFinish", { id, ...finish });
  } catch (err) {
    call("importCancel", { id }).catch(() => {});
    throw err;
  }
}

/** The items cut into batches of about BATCH_BYTES or BATCH_FILES.
 * @param {Item[]} items */
function batches(items) {
  /** @type {Item[][]} */
  const cut = [];
  /** @type {Item[]} */
  let current = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length && (bytes + item.file.size > BATCH_BYTES || current.length >= BATCH_FILES)) {
      cut.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.file.size;
  }
  if (current.length) cut.push(current);
  return cut;
}

/** One batch read as one blob of its files end to end (one read, not one per file) and sent as one
 * base64 string with each file's path and size. The browser encodes it (`readAsDataURL`) off the page's
 * thread: encoding 4 MB in script took the page 300–800 ms per batch, a frozen page (docs/folders.md).
 * @param {Item[][]} all
 * @param {number} index */
async function readBatch(all, index) {
  const batch = all[index];
  if (!batch) return null;
  const files = batch.map(({ path, file }) => ({ path, size: file.size }));
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  return { files, data: await base64Of(new Blob(batch.map((item) => item.file))), bytes };
}

/** A blob's bytes in base64, encoded by the browser: a data URL without its `data:…;base64,` head.
 * @param {Blob} blob
 * @returns {Promise<string>} */
function base64Of(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = /** @type {string} */ (reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
