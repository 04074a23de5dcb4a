// "A new version is available": shown under the top bar when a newer build of the app has been
// installed while this page runs; its button switches to it (the page reloads).
import { button, el } from "./dom.js";

const MESSAGE = "A new version of AgentLite is ready. Reload to use it (your files and chats stay).";

/** @param {ParentNode} root */
export function createUpdateNotice(root) {
  const anchor = /** @type {Element} */ (root.querySelector(".topbar"));

  /** @param {() => unknown} apply switches to the new version */
  function show(apply) {
    if (root.querySelector("[data-testid=update-available]")) return;
    const box = el("div", "storage-notice update-available", null, { testid: "update-available", role: "status" });
    const reload = button("Reload", "update-reload", () => {
      reload.disabled = true;
      apply();
    });
    box.append(el("span", "", MESSAGE), reload);
    anchor.after(box);
  }

  return { show };
}
