// The tab strip of the chat panel: one tab per chat (`chat-tab`, `data-active` on the active one),
// renamed by double-click or F2, closed by its × or Delete. It reports intents; the chat view owns what
// a tab shows. The tab list holds tabs only, and a tab holds no control: the × is a mouse target hidden
// from assistive technology, and the keyboard closes a tab with Delete (announced by aria-keyshortcuts).

/** @typedef {{tab: HTMLDivElement, label: HTMLSpanElement, close: HTMLSpanElement}} Tab */

/** @param {HTMLElement} list
 * @param {{onActivate: (id: string) => unknown, onClose: (id: string) => unknown, onRename: (id: string, title: string) => unknown}} actions */
export function createTabStrip(list, { onActivate, onClose, onRename }) {
  /** @type {Map<string, Tab>} */
  const tabs = new Map();

  /** @param {string} id @param {string} title */
  function add(id, title) {
    const tab = document.createElement("div");
    Object.assign(tab, { className: "tab", tabIndex: 0 });
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-keyshortcuts", "Delete F2");
    tab.dataset.testid = "chat-tab";
    tab.dataset.chat = id;
    const label = Object.assign(document.createElement("span"), { className: "tab-title", textContent: title });
    const close = Object.assign(document.createElement("span"), { className: "tab-close", textContent: "×" });
    close.dataset.testid = "chat-tab-close";
    close.setAttribute("aria-hidden", "true");
    close.title = `Close ${title}`;
    close.addEventListener("click", (event) => {
      event.stopPropagation();
      onClose(id);
    });
    tab.append(label, close);
    tab.addEventListener("click", () => onActivate(id));
    tab.addEventListener("dblclick", () => startRename(id));
    tab.addEventListener("keydown", (event) => keyOnTab(event, id));
    list.append(tab);
    tabs.set(id, { tab, label, close });
  }

  /** @param {KeyboardEvent} event @param {string} id */
  function keyOnTab(event, id) {
    if (event.target !== tabs.get(id)?.tab) return; // keys typed into the rename field
    /** @type {Record<string, number | undefined>} */
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key === "Enter" || event.key === " ") onActivate(id);
    else if (event.key === "F2") startRename(id);
    else if (event.key === "Delete") onClose(id);
    else if (moves[event.key]) focusNeighbour(id, /** @type {number} */ (moves[event.key]));
    else return;
    event.preventDefault();
  }

  /** @param {string} id @param {number} step */
  function focusNeighbour(id, step) {
    const ids = order();
    const next = ids[(ids.indexOf(id) + step + ids.length) % ids.length];
    /** @type {Tab} */ (tabs.get(next)).tab.focus();
    onActivate(next);
  }

  /** @param {string} id */
  function startRename(id) {
    const { tab, label } = /** @type {Tab} */ (tabs.get(id));
    if (tab.querySelector("input")) return;
    const field = Object.assign(document.createElement("input"), { className: "tab-rename", value: label.textContent });
    field.dataset.testid = "chat-tab-rename";
    field.setAttribute("aria-label", "Chat name");
    let done = false;
    /** @param {boolean} commit */
    const finish = (commit) => {
      if (done) return;
      done = true;
      const title = field.value.trim();
      field.replaceWith(label);
      if (commit && title && title !== label.textContent) {
        setTitle(id, title);
        onRename(id, title);
      }
      tab.focus();
    };
    field.addEventListener("keydown", (event) => {
      event.stopPropagation();
      if (event.key === "Enter") finish(true);
      else if (event.key === "Escape") finish(false);
    });
    field.addEventListener("blur", () => finish(true));
    field.addEventListener("click", (event) => event.stopPropagation());
    label.replaceWith(field);
    field.select();
    field.focus();
  }

  /** @param {string} id @param {string} title */
  function setTitle(id, title) {
    const entry = tabs.get(id);
    if (!entry) return;
    entry.label.textContent = title;
    entry.close.title = `Close ${title}`;
  }

  /** @param {string} id */
  function select(id) {
    for (const [tabId, { tab }] of tabs) {
      const on = tabId === id;
      tab.dataset.active = String(on);
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
    }
  }

  /** @param {string} id */
  function remove(id) {
    tabs.get(id)?.tab.remove();
    tabs.delete(id);
  }

  /** The chats' ids in the order their tabs show. */
  function order() {
    return [...list.querySelectorAll("[data-testid=chat-tab]")].map(
      (tab) => /** @type {string} */ (/** @type {HTMLElement} */ (tab).dataset.chat),
    );
  }

  return { add, remove, select, setTitle, order, title: (/** @type {string} */ id) => tabs.get(id)?.label.textContent };
}
