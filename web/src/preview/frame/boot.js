// The preview frame's runtime (docs/preview.md), the entry of dist/preview-frame-runtime.js. The app hands
// its text to the frame's bootstrap (web/sandbox/preview.html) with the page's bundle; the bootstrap runs
// it as a classic script from a blob: URL it made, with the boot message on the script element. A classic
// script, not a module: a module loaded before the page's import map would keep Firefox from taking the
// map (it takes import maps only until the document's first module load). The runtime locks the frame
// down and writes the page.
import { lockDown } from "./lock-down.js";
import { showPage } from "./page-writer.js";

/** @import { BootMessage } from "./page-writer.js" */
/** @import { HtmlPolicy } from "./trusted-html.js" */

/**
 * What the bootstrap puts on the runtime's script element: the port to the app, the boot message, and
 * the frame's own trusted-types policy (null where the engine has no trusted types).
 * @typedef {{port: MessagePort, data: BootMessage, policy: HtmlPolicy | null}} Boot
 */

/**
 * @param {Boot} boot
 */
function start({ port, data, policy }) {
  /** @param {unknown} err */
  const fail = (err) => {
    const message = String((err instanceof Error && err.message) || err);
    port.postMessage({ type: "state", state: "error", message });
  };
  try {
    lockDown(port, policy);
    showPage(data.bundle, data.storage || {}, port).catch(fail);
  } catch (err) {
    fail(err);
  }
}

start(/** @type {HTMLScriptElement & {boot: Boot}} */ (document.currentScript).boot);
