// The panel switcher of a narrow window (≤ 900 px, styles.css): Files, Editor and Chat as tabs, one panel
// shown at a time (`data-panel` on the layout). Wide windows show all three panels and hide the
// switcher. Arrow keys, Home and End move between the tabs, as in any tab list. A tab may carry a badge
// (`badge`): a count of what waits there, such as the files of a proposal still to review in the Editor.

import { el } from "./dom.js";

/** @type {Record<string, number | undefined>} */
const KEY_STEP = { ArrowRight: 1, ArrowLeft: -1 };

/** @param {ParentNode} root @param {{initial?: string}} [options] */
export function createPanelSwitcher(root, { initial = "chat" } = {}) {
  const layout = /** @type {HTMLElement} */ (root.querySelector(".layout"));
  const tabs = [...root.querySelectorAll(/** @type {"button"} */ ("[data-testid=panel-switch]"))];

  /** @param {string} name @param {boolean} [focus] */
  function show(name, focus = false) {
    layout.dataset.panel = name;
    for (const tab of tabs) {
      const on = tab.dataset.panel === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const at = tabs.indexOf(/** @type {HTMLButtonElement} */ (event.target));
    let next = null;
    if (KEY_STEP[event.key])
      next = tabs[(at + /** @type {number} */ (KEY_STEP[event.key]) + tabs.length) % tabs.length];
    else if (event.key === "Home") next = tabs[0];
    else if (event.key === "End") next = tabs.at(-1);
    if (!next) return;
    event.preventDefault();
    show(/** @type {string} */ (next.dataset.panel), true);
  }

  for (const tab of tabs) {
    tab.addEventListener("click", () => show(/** @type {string} */ (tab.dataset.panel)));
    tab.addEventListener("keydown", onKey);
  }
  /** A count on the tab of `name` ("" or 0: none), and what it counts, for its accessible name.
   * @param {string} name @param {number} count @param {string} what e.g. "to review" */
  function badge(name, count, what) {
    const tab = tabs.find((t) => t.dataset.panel === name);
    if (!tab) return;
    tab.querySelector(".panel-badge")?.remove();
    tab.removeAttribute("aria-label");
    if (!count) return;
    tab.append(el("span", "panel-badge", String(count), { testid: "panel-badge", "aria-hidden": "true" }));
    tab.setAttribute("aria-label", `${tab.firstChild?.textContent?.trim()}, ${count} ${what}`);
  }

  show(initial);
  return { show, badge };
}
