// The image worker: decodes and downscales attached images off the page's thread (image-encode.js).
import { encodeForModel } from "../image-encode.js";

/** @type {import("../image-encode.js").Surface} */
const offscreen = (width, height) => new OffscreenCanvas(width, height);

self.onmessage = async (/** @type {MessageEvent<{id: number, blob: Blob, mime: string}>} */ { data }) => {
  try {
    self.postMessage({ id: data.id, ok: true, ...(await encodeForModel(data.blob, data.mime, offscreen)) });
  } catch (err) {
    self.postMessage({
      id: data.id,
      ok: false,
      message: String(/** @type {Error | undefined} */ (err)?.message || err),
    });
  }
};
