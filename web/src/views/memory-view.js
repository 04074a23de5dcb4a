// The memory panel of the chat: the workspace's long-term memory items (pinned slots and facts), each
// viewable, editable and deletable. Item text is user- or model-derived, so it is only ever set as
// textContent. The panel reads the items through its callbacks and refreshes when asked (after a turn
// that added a memory) or when opened.
import { button, el } from "./dom.js";

/** A memory item as `memory.list` lists it (the fields shown).
 * @typedef {{id: string, text: string, pinned?: boolean}} MemoryItem */

/** @param {ParentNode} root
 * @param {{list: () => Promise<unknown>, update: (id: string, text: string) => Promise<unknown>,
 *   remove: (id: string) => Promise<unknown>, add: (text: string) => Promise<unknown>}} actions */
export function createMemoryView(root, { list, update, remove, add }) {
  const toggle = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=memory-open]"));
  const panel = /** @type {HTMLElement} */ (root.querySelector("[data-testid=memory-panel]"));
  const items = /** @type {HTMLElement} */ (panel.querySelector(".memory-list"));
  const message = /** @type {HTMLElement} */ (panel.querySelector(".memory-message"));
  const addForm = /** @type {HTMLFormElement} */ (panel.querySelector(".memory-add"));
  /** @type {string | null} */
  let editing = null; // the id being edited: a refresh leaves that item's field alone

  /** @param {HTMLElement["hidden"]} open (a panel's `hidden` when toggled) */
  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) refresh();
  }

  async function refresh() {
    if (panel.hidden) return;
    try {
      render(/** @type {MemoryItem[]} */ (await list()));
    } catch (err) {
      message.textContent = `Memory unavailable: ${/** @type {Error} */ (err).message}`;
    }
  }

  /** @param {MemoryItem[]} memories */
  function render(memories) {
    const kept = editing && items.querySelector(`[data-id="${CSS.escape(editing)}"]`);
    items.replaceChildren(...memories.map((memory) => (kept && memory.id === editing ? kept : itemFor(memory))));
    message.textContent = memories.length ? "" : "Nothing remembered yet. Say “remember that …” in a chat.";
  }

  /** @param {MemoryItem} memory */
  function itemFor(memory) {
    const item = el("li", "memory-item", null, { testid: "memory-item" });
    item.dataset.id = memory.id;
    item.dataset.pinned = String(Boolean(memory.pinned));
    const text = el("span", "memory-text", memory.text);
    const actions = el("span", "memory-actions");
    const edit = button("Edit", "memory-edit", () => startEdit(item, memory));
    const drop = button("Delete", "memory-delete", () => act(() => remove(memory.id)));
    edit.setAttribute("aria-label", `Edit memory: ${memory.text}`);
    drop.setAttribute("aria-label", `Delete memory: ${memory.text}`);
    actions.append(edit, drop);
    if (memory.pinned) item.append(el("span", "memory-pin", "pinned"));
    item.append(text, actions);
    return item;
  }

  /** @param {HTMLElement} item @param {MemoryItem} memory */
  function startEdit(item, memory) {
    editing = memory.id;
    const field = Object.assign(document.createElement("textarea"), {
      className: "memory-field",
      value: memory.text,
      rows: 2,
    });
    field.dataset.testid = "memory-field";
    field.setAttribute("aria-label", "Memory text");
    /** @param {boolean} save */
    const finish = (save) => {
      editing = null;
      act(save ? () => update(memory.id, field.value) : async () => {});
    };
    const save = button("Save", "memory-save", () => finish(true));
    const cancel = button("Cancel", "memory-cancel", () => finish(false));
    field.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) finish(true);
      else if (event.key === "Escape") finish(false);
      else return;
      event.preventDefault();
      event.stopPropagation();
    });
    item.replaceChildren(field, save, cancel);
    field.focus();
  }

  /** @param {() => Promise<unknown>} change */
  async function act(change) {
    try {
      await change();
    } catch (err) {
      message.textContent = `Could not change the memory: ${/** @type {Error} */ (err).message}`;
      return;
    }
    await refresh();
  }

  toggle.addEventListener("click", () => setOpen(panel.hidden));
  /** @type {HTMLButtonElement} */ (panel.querySelector("[data-testid=memory-close]")).addEventListener("click", () => {
    setOpen(false);
    toggle.focus();
  });
  addForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = /** @type {HTMLFormControlsCollection & {text: HTMLInputElement}} */ (addForm.elements).text;
    const text = field.value.trim();
    if (!text) return;
    field.value = "";
    act(() => add(text));
  });
  return { refresh };
}
