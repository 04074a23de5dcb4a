// An attached image made ready to send: its type by its first bytes, then downscaled in the image worker
// (the page's own thread only where workers cannot draw). Resolves to what the composer keeps.
import { encodeForModel } from "./image-encode.js";
import { toBase64 } from "../bytes.js";
import { sniffImage } from "./image-rules.js";

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
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const mime = sniffImage(head);
  if (!mime) throw new Error("it is not a PNG, JPEG, GIF or WebP image");
  let made;
  try {
    made = await inWorker(file, mime);
  } catch (err) {
    throw new Error(`it could not be read as an image (${/** @type {Error} */ (err).message})`);
  }
  const bytes = new Uint8Array(await made.blob.arrayBuffer());
  return { mime: made.mime, data: toBase64(bytes), width: made.width, height: made.height, sentBytes: bytes.length };
}
