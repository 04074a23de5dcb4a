// The image worker: decodes and downscales attached images off the page's thread (image-encode.js).
import { encodeForModel } from "./image-encode.js";

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, ok: true, ...(await encodeForModel(data.blob, data.mime)) });
  } catch (err) {
    self.postMessage({ id: data.id, ok: false, message: String(err?.message || err) });
  }
};
