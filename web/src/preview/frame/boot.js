// The preview frame's runtime (docs/preview.md), the entry of dist/preview-frame-runtime.js. The app hands
// its text to the frame's bootstrap (web/sandbox/preview.html) with the page's bundle; the bootstrap
// imports it from a blob: URL and calls `start`, which locks the frame down and writes the page.
import { lockDown } from "./lock-down.js";
import { showPage } from "./page-writer.js";

/** @import { BootMessage } from "./page-writer.js" */

/**
 * @param {MessagePort} port the channel to the app
 * @param {BootMessage} data the boot message: the page's bundle and its storage
 */
export function start(port, data) {
  /** @param {unknown} err */
  const fail = (err) => {
    const message = String((err instanceof Error && err.message) || err);
    port.postMessage({ type: "state", state: "error", message });
  };
  try {
    lockDown(port);
    showPage(data.bundle, data.storage || {}, port).catch(fail);
  } catch (err) {
    fail(err);
  }
}
