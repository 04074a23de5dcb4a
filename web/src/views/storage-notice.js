// Notices about where the workspace lives, under the top bar:
// - data-storage="persistent" | "transient" on the root: the browser's answer to the persistence request;
// - storage-warning: the browser may evict this site's data (storage is not persistent); points to
//   exporting the workspace, and can be dismissed;
// - storage-reload: this tab's database connection closed (a newer version of the app in another tab);
//   nothing more can be saved here until the page is reloaded.
import { button, el } from "./dom.js";

/** @param {Element} root the page (its dataset says where the workspace lives)
 * @param {{onExport: () => unknown, onDismiss: () => unknown, onReload: () => unknown}} actions */
export function createStorageNotice(root, { onExport, onDismiss, onReload }) {
  const anchor = /** @type {Element} */ (root.querySelector(".topbar"));

  /** @param {string} testid @param {string} role @param {string} text
   * @param {[label: string, testid: string, act: () => unknown][]} actions */
  function notice(testid, role, text, actions) {
    const box = el("div", `storage-notice ${testid}`, null, { testid, role });
    box.append(el("span", "", text), ...actions.map(([label, id, act]) => button(label, id, act)));
    anchor.after(box);
    return box;
  }

  /** Render the browser's answer to the persistence request (`data-storage` on the root). */
  /** @param {boolean} kept @param {boolean} dismissed */
  function persistence(kept, dismissed) {
    /** @type {HTMLElement} */ (root).dataset.storage = kept ? "persistent" : "transient";
    if (!kept && !dismissed) warn();
  }

  function warn() {
    if (root.querySelector("[data-testid=storage-warning]")) return;
    const box = notice(
      "storage-warning",
      "status",
      "This browser may clear AgentLite's storage when space runs low: your files and their history " +
        "are not guaranteed to stay. Export the workspace now and then to keep a copy.",
      [
        ["Export workspace", "storage-warning-export", () => onExport()],
        [
          "Dismiss",
          "storage-warning-dismiss",
          () => {
            box.remove();
            onDismiss();
          },
        ],
      ],
    );
  }

  /** @param {string} message */
  function closed(message) {
    if (root.querySelector("[data-testid=storage-reload]")) return;
    notice("storage-reload", "alert", message, [["Reload", "storage-reload-button", () => onReload()]]);
  }

  return { persistence, closed };
}
