// The context menu of the file tree and what its items do: new file, new folder, rename, delete and
// download. Each is one recorded user change in the workspace (download only reads).
import { fromBase64 } from "../bytes.js";
import { downloadBytes } from "../browser/download.js";

/** @import { Call } from "../folders/folder-import.js" */
/** @import { TreeEntry } from "./tree-order.js" */

const join = (/** @type {string} */ folder, /** @type {string} */ name) =>
  folder === "/" ? `/${name}` : `${folder}/${name}`;
const nameOf = (/** @type {string} */ path) => path.slice(path.lastIndexOf("/") + 1);

/**
 * @param {ParentNode} root
 * @param {{ call: Call, onOpen: (path: string) => unknown, onError: (text: string) => void }} options
 */
export function createFileMenu(root, { call, onOpen, onError }) {
  const menu = document.createElement("div");
  Object.assign(menu, { className: "file-menu", role: "menu", hidden: true });
  menu.setAttribute("aria-label", "File actions");
  root.append(menu);
  /** @type {HTMLElement | null} */
  let returnFocus = null;

  /** @param {() => Promise<unknown>} work */
  async function run(work) {
    try {
      await work();
    } catch (err) {
      onError(/** @type {Error} */ (err).message);
    }
  }

  const ask = (/** @type {string} */ question, value = "") => window.prompt(question, value)?.trim() || null;

  /** @param {string} folder */
  function newFile(folder) {
    const name = ask(`New file in ${folder}`);
    if (!name) return;
    return run(async () => {
      await call("writeText", { path: join(folder, name), text: "" });
      await onOpen(join(folder, name));
    });
  }

  /** @param {string} folder */
  function newFolder(folder) {
    const name = ask(`New folder in ${folder}`);
    if (name) return run(() => call("createFolder", { path: join(folder, name) }));
  }

  /** @param {string} path */
  function rename(path) {
    const name = ask(`Rename ${path} to`, nameOf(path));
    if (name && name !== nameOf(path)) return run(() => call("rename", { path, new_name: name }));
  }

  /** @param {string} path */
  function remove(path) {
    if (window.confirm(`Delete ${path}? (It stays in the history and can be undone.)`)) {
      return run(() => call("delete", { path }));
    }
  }

  /** @param {string} path */
  function download(path) {
    return run(async () => {
      const data = await call("readBase64", { path });
      if (data !== null) downloadBytes(nameOf(path), fromBase64(data));
    });
  }

  /** @param {TreeEntry} target
   * @returns {Array<[string, () => unknown]>} a menu item's label and its action */
  function items(target) {
    const folder = target.kind === "dir" ? target.path : target.path.slice(0, target.path.lastIndexOf("/")) || "/";
    /** @type {Array<[string, () => unknown]>} */
    const list = [
      ["New file…", () => newFile(folder)],
      ["New folder…", () => newFolder(folder)],
    ];
    if (target.path === "/") return list;
    list.push(["Rename…", () => rename(target.path)], ["Delete", () => remove(target.path)]);
    if (target.kind === "file") list.push(["Download", () => download(target.path)]);
    return list;
  }

  function close() {
    if (menu.hidden) return;
    menu.hidden = true;
    returnFocus?.focus?.();
  }

  /**
   * @param {TreeEntry} target
   * @param {number} x
   * @param {number} y
   */
  function openAt(target, x, y) {
    returnFocus = /** @type {HTMLElement | null} */ (document.activeElement);
    const buttons = items(target).map(([label, action]) => {
      const button = document.createElement("button");
      Object.assign(button, { type: "button", role: "menuitem", textContent: label, tabIndex: -1 });
      button.dataset.action = label.replace("…", "").toLowerCase().replace(" ", "-");
      button.addEventListener("click", () => {
        close();
        action();
      });
      return button;
    });
    menu.replaceChildren(...buttons);
    menu.dataset.path = target.path;
    menu.hidden = false;
    const { innerWidth, innerHeight } = window;
    menu.style.left = `${Math.min(x, innerWidth - menu.offsetWidth - 4)}px`;
    menu.style.top = `${Math.min(y, innerHeight - menu.offsetHeight - 4)}px`;
    buttons[0].focus();
  }

  menu.addEventListener("keydown", (event) => {
    const buttons = /** @type {HTMLElement[]} */ ([...menu.children]);
    const at = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const step = /** @type {Record<string, number>} */ ({ ArrowDown: 1, ArrowUp: -1 })[event.key];
    if (step) buttons[(at + step + buttons.length) % buttons.length].focus();
    if (event.key === "Escape" || event.key === "Tab") close();
    if (step || event.key === "Escape") event.preventDefault();
  });
  document.addEventListener("pointerdown", (event) => menu.contains(/** @type {Node} */ (event.target)) || close());

  return { openAt, rename, remove, newFile };
}
