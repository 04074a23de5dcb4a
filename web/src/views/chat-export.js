// Chat export and import, in the chat's header: "Export chat" offers Markdown (to read) or JSON (to
// import again; both hold every branch and tool call); "Import chat" opens an exported JSON file as a new
// tab. The engine writes and reads the files; a file that is not a chat is refused with a note.
import { button } from "./dom.js";
import { downloadBytes } from "../browser/download.js";

/** @param {ParentNode} root
 * @param {{activeChat: () => string | null,
 *   exportChat: (id: string | null, format: string) => Promise<{name: string, text: string, type: string}>,
 *   importChat: (text: string) => Promise<unknown>}} actions the file an export makes; an import's notes */
export function createChatExport(root, { activeChat, exportChat, importChat }) {
  const head = /** @type {HTMLElement} */ (root.querySelector(".chat-head"));
  const exportButton = button("Export chat", "chat-export", () => toggleMenu());
  exportButton.setAttribute("aria-haspopup", "menu");
  exportButton.setAttribute("aria-expanded", "false");
  const menu = document.createElement("div");
  menu.className = "chat-export-menu";
  menu.setAttribute("role", "menu");
  menu.hidden = true;
  for (const [format, label] of [
    ["markdown", "Markdown (.md), to read"],
    ["json", "JSON (.json), to import again"],
  ]) {
    const item = button(label, `chat-export-${format}`, () => download(format));
    item.setAttribute("role", "menuitem");
    menu.append(item);
  }
  const picker = Object.assign(document.createElement("input"), {
    type: "file",
    accept: ".json,application/json",
    hidden: true,
  });
  picker.dataset.testid = "chat-import-file";
  const importButton = button("Import chat", "chat-import", () => picker.click());
  importButton.title = "Open an exported chat (.json) as a new tab";
  const note = document.createElement("span");
  note.className = "chat-export-note";
  note.setAttribute("role", "status");
  const group = document.createElement("span");
  group.className = "chat-export";
  group.append(exportButton, menu, importButton, picker, note);
  /** @type {HTMLElement} */ (head.querySelector(".spacer")).after(group);

  /** @param {HTMLElement["hidden"]} [open] */
  function toggleMenu(open = menu.hidden) {
    menu.hidden = !open;
    exportButton.setAttribute("aria-expanded", String(open));
    if (open) /** @type {HTMLButtonElement} */ (menu.querySelector("button")).focus();
  }

  /** @param {string} format */
  async function download(format) {
    toggleMenu(false);
    try {
      const file = await exportChat(activeChat(), format);
      downloadBytes(file.name, file.text, `${file.type};charset=utf-8`);
      say("");
    } catch (err) {
      say(`Export failed: ${/** @type {Error} */ (err).message}`);
    }
  }

  picker.addEventListener("change", async () => {
    const [file] = /** @type {FileList} */ (picker.files);
    picker.value = "";
    if (!file) return;
    try {
      const notes = await importChat(await file.text());
      say(Array.isArray(notes) && notes.length ? `Imported; left out: ${notes.join("; ")}` : "");
    } catch (err) {
      say(`Could not import ${file.name}: ${/** @type {Error} */ (err).message}`);
    }
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    toggleMenu(false);
  });
  document.addEventListener(
    "click",
    (event) => !group.contains(/** @type {Node} */ (event.target)) && !menu.hidden && toggleMenu(false),
  );

  /** @param {string} text */
  function say(text) {
    note.textContent = text;
  }
}
