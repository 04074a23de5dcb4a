// The GGUF header reader's own thread (dist/gguf-worker.js, a file of this origin): a model file's header
// is read here (gguf-header.js), so a hostile one costs the page's thread nothing. One file per worker:
// it answers {facts} or {error, gguf} (gguf: refused as not a model the page can run), then is ended.
import { GgufError, headerFacts } from "../gguf-header.js";

self.onmessage = async (/** @type {MessageEvent<{blob: Blob, name: string}>} */ { data }) => {
  try {
    self.postMessage({ facts: await headerFacts(data.blob, data.name) });
  } catch (err) {
    const error = String(/** @type {Error | undefined} */ (err)?.message || err);
    self.postMessage({ error, gguf: err instanceof GgufError });
  }
};
