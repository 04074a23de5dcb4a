// The image worker: decodes and downscales attached images off the page's thread (image-encode.js).
import { encodeForModel } from "./image-encode.js";

self.onmessage = async (/** @type {MessageEvent<{id: number, blob: Blob, mime: string}>} */ { data }) => {
  try {
    self.postMessage({ id: data.id, ok: true, ...(await encodeForModel(data.blob, data.mime)) });
  } catch (err) {
    self.postMessage({
      id: data.id,
      ok: false,
      message: String(/** @type {Error | undefined} */ (err)?.message || err),
    });
  }
};
