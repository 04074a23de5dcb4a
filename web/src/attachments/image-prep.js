// An attached image made ready to send: its type and its pixels by its header (measured, never decoded:
// pixels before bytes, image-size.js), then downscaled in the image worker (the page's own thread only
// where workers cannot draw). Resolves to what the composer keeps.
import { encodeForModel } from "./image-encode.js";
import { toBase64 } from "../bytes.js";
import { checked } from "./image-size.js";

/** The first bytes read to measure an image: its header, and for PNG and JPEG far more than it needs. */
export const HEAD_BYTES = 1024 * 1024;

/** @import { Surface } from "./image-encode.js" */
/** @typedef {{blob: Blob, mime: string, width: number, height: number}} Encoded */
/** @typedef {{ok: boolean, message?: string, retry?: boolean} & Partial<Encoded>} WorkerAnswer what image-worker.js answers */

/** @type {Worker | null} */
let worker = null;
let workerFailed = false;
let nextId = 0;
/** @type {Map<number, (answer: WorkerAnswer) => void>} */
const waiting = new Map();

/** An OffscreenCanvas, or on a page whose browser has none, a detached <canvas>. @type {Surface} */
const pageSurface = (width, height) => {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(width, height);
  return Object.assign(document.createElement("canvas"), { width, height });
};

function imageWorker() {
  if (workerFailed || typeof OffscreenCanvas === "undefined") return null;
  if (!worker) {
    try {
      worker = new Worker(new URL("./image-worker.js", import.meta.url), { type: "module" });
    } catch {
      workerFailed = true;
      return null;
    }
    worker.onmessage = (/** @type {MessageEvent<WorkerAnswer & {id: number}>} */ { data }) =>
      waiting.get(data.id)?.(data);
    worker.onerror = () => {
      workerFailed = true;
      for (const settle of waiting.values()) settle({ ok: false, retry: true });
    };
  }
  return worker;
}

/** @param {Blob} blob @param {string} mime @returns {Promise<Encoded>} */
function inWorker(blob, mime) {
  const found = imageWorker();
  if (!found) return encodeForModel(blob, mime, pageSurface);
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, (answer) => {
      waiting.delete(id);
      if (answer.ok) resolve(/** @type {Encoded} */ (answer));
      else if (answer.retry) resolve(encodeForModel(blob, mime, pageSurface));
      else reject(new Error(answer.message));
    });
    found.postMessage({ id, blob, mime });
  });
}

/**
 * @param {Blob} file the original
 * @returns {Promise<{mime: string, data: string, width: number, height: number, sentBytes: number}>}
 */
export async function prepareImage(file) {
  const size = await measureImage(file);
  if (!size.ok) throw new Error(size.reason);
  const mime = size.mime;
  let made;
  try {
    made = await inWorker(file, mime);
  } catch (err) {
    throw new Error(`it could not be read as an image (${/** @type {Error} */ (err).message})`);
  }
  const bytes = new Uint8Array(await made.blob.arrayBuffer());
  return { mime: made.mime, data: toBase64(bytes), width: made.width, height: made.height, sentBytes: bytes.length };
}

/**
 * The image's type, pixels and frames by its header, within bounds, or why not (one clause): the first
 * HEAD_BYTES, and the whole file only when they end before the header does or before a GIF's or a
 * WebP's last frame (the frames are counted by walking the blocks, nothing is decoded).
 * @param {Blob} file @returns {Promise<import("./image-size.js").Size | import("./image-size.js").Refused>}
 */
export async function measureImage(file) {
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  const found = checked(head);
  if (!found.ended || file.size <= head.length) return found;
  return checked(new Uint8Array(await file.arrayBuffer()));
}
