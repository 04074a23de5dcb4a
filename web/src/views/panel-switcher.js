// The panel switcher of a narrow window (≤ 900 px, styles.css): Files, Editor and Chat as tabs, one panel
// shown at a time (`data-panel` on the layout). Wide windows show all three panels and hide the
// switcher. Arrow keys, Home and End move between the tabs, as in any tab list.

const KEY_STEP = { ArrowRight: 1, ArrowLeft: -1 };

export function createPanelSwitcher(root, { initial = "chat" } = {}) {
  const layout = root.querySelector(".layout");
  const tabs = [...root.querySelectorAll("[data-testid=panel-switch]")];

  function show(name, focus = false) {
    layout.dataset.panel = name;
    for (const tab of tabs) {
      const on = tab.dataset.panel === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
  }

  function onKey(event) {
    const at = tabs.indexOf(event.target);
    let next = null;
    if (KEY_STEP[event.key]) next = tabs[(at + KEY_STEP[event.key] + tabs.length) % tabs.length];
    else if (event.key === "Home") next = tabs[0];
    else if (event.key === "End") next = tabs.at(-1);
    if (!next) return;
    event.preventDefault();
    show(next.dataset.panel, true);
  }

  for (const tab of tabs) {
    tab.addEventListener("click", () => show(tab.dataset.panel));
    tab.addEventListener("keydown", onKey);
  }
  show(initial);
  return { show };
}
