// The workspace tree: folders that fold, an icon per kind of file, keyboard navigation (arrows, Enter,
// F2, Delete, the context-menu key), and drag and drop to move. It renders the list it is given and
// reports what the user asks for to its callbacks.

const ICONS = {
  ts: "TS",
  tsx: "TS",
  js: "JS",
  jsx: "JS",
  mjs: "JS",
  cjs: "JS",
  py: "PY",
  md: "MD",
  json: "{}",
  css: "#",
  html: "<>",
  htm: "<>",
  txt: "TX",
  svg: "SV",
  png: "IM",
  jpg: "IM",
  jpeg: "IM",
  gif: "IM",
};
const DRAG_TYPE = "application/x-agentlite-path";

const nameOf = (path) => path.slice(path.lastIndexOf("/") + 1);
const parentOf = (path) => path.slice(0, path.lastIndexOf("/")) || "/";

const depthOf = (path) => path.split("/").length - 2;

/** Parents before their children; in a folder, folders first, then by name. Each entry's key is made
 * once, not at each comparison: a 10,000-file tree is sorted on every refresh. */
function treeOrder(entries) {
  const keyed = entries.map((entry) => ({
    entry,
    key: [depthOf(entry.path), entry.kind === "dir" ? 0 : 1, entry.path],
  }));
  keyed.sort(({ key: x }, { key: y }) => {
    for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
  return keyed.map(({ entry }) => entry);
}

function icon(entry) {
  const span = document.createElement("span");
  span.className = "file-icon";
  span.setAttribute("aria-hidden", "true");
  const extension = nameOf(entry.path).split(".").slice(1).pop()?.toLowerCase() ?? "";
  span.dataset.type = entry.kind === "dir" ? "dir" : extension || "file";
  span.textContent = entry.kind === "dir" ? "" : ICONS[extension] || "··";
  return span;
}

export function createFileTree(tree, actions) {
  const collapsed = new Set();
  let selected = null;

  function item(entry, depth) {
    const li = document.createElement("li");
    Object.assign(li, { className: `file-item ${entry.kind}`, role: "treeitem", tabIndex: -1, draggable: true });
    Object.assign(li.dataset, { testid: "file-item", path: entry.path, kind: entry.kind });
    li.setAttribute("aria-level", String(depth + 1));
    li.setAttribute("aria-label", `${entry.kind === "dir" ? "Folder" : "File"} ${nameOf(entry.path)}`);
    li.setAttribute("aria-selected", String(entry.path === selected));
    const row = document.createElement("div");
    row.className = "file-row";
    row.style.paddingLeft = `${0.4 + depth * 0.9}rem`;
    const twisty = document.createElement("span");
    twisty.className = "twisty";
    twisty.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "file-name";
    name.textContent = nameOf(entry.path);
    row.append(twisty, icon(entry), name);
    li.append(row);
    if (entry.kind === "dir") {
      const group = document.createElement("ul");
      group.role = "group";
      li.append(group);
      setExpanded(li, !collapsed.has(entry.path));
    }
    return li;
  }

  function setExpanded(li, open) {
    li.setAttribute("aria-expanded", String(open));
    li.querySelector(":scope > ul").hidden = !open;
    if (open) collapsed.delete(li.dataset.path);
    else collapsed.add(li.dataset.path);
  }

  function render(entries) {
    const focused = document.activeElement?.closest?.(/** @type {"li"} */ ("[data-testid=file-item]"))?.dataset.path;
    const byPath = new Map();
    const top = [];
    for (const entry of treeOrder(entries)) {
      const li = item(entry, depthOf(entry.path));
      byPath.set(entry.path, li);
      const parent = byPath.get(parentOf(entry.path));
      if (parent)
        parent.lastElementChild.append(li); // a folder's group is its last child
      else top.push(li);
    }
    tree.replaceChildren(...top);
    const again = (focused && byPath.get(focused)) || byPath.get(selected) || top[0];
    if (again) again.tabIndex = 0;
    if (focused && byPath.get(focused)) byPath.get(focused).focus();
  }

  function select(path) {
    selected = path;
    for (const li of tree.querySelectorAll("[data-testid=file-item]")) {
      li.setAttribute("aria-selected", String(li.dataset.path === path));
    }
  }

  const visible = () => [...tree.querySelectorAll("[data-testid=file-item]")].filter((li) => li.offsetParent);

  function focusItem(li) {
    if (!li) return;
    for (const other of tree.querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
  }

  function activate(li) {
    if (li.dataset.kind === "dir") setExpanded(li, li.getAttribute("aria-expanded") !== "true");
    else actions.onOpen(li.dataset.path);
  }

  function menuAt(li, x, y) {
    actions.onMenu(li ? { path: li.dataset.path, kind: li.dataset.kind } : { path: "/", kind: "dir" }, x, y);
  }

  function onKey(event) {
    const li = event.target.closest("[data-testid=file-item]");
    if (!li || event.target !== li) return;
    const open = li.getAttribute("aria-expanded") === "true";
    const list = visible();
    const at = list.indexOf(li);
    const keys = {
      ArrowDown: () => focusItem(list[at + 1]),
      ArrowUp: () => focusItem(list[at - 1]),
      Home: () => focusItem(list[0]),
      End: () => focusItem(list.at(-1)),
      ArrowRight: () => li.dataset.kind === "dir" && (open ? focusItem(list[at + 1]) : setExpanded(li, true)),
      ArrowLeft: () => (open ? setExpanded(li, false) : focusItem(li.parentElement.closest("[data-testid=file-item]"))),
      Enter: () => activate(li),
      " ": () => activate(li),
      F2: () => actions.onRename(li.dataset.path),
      Delete: () => actions.onDelete(li.dataset.path),
      ContextMenu: () => menuAt(li, li.getBoundingClientRect().left + 24, li.getBoundingClientRect().bottom),
    };
    const key = event.key === "F10" && event.shiftKey ? "ContextMenu" : event.key;
    if (!keys[key]) return;
    event.preventDefault();
    keys[key]();
  }

  function dropFolder(event) {
    const li = event.target.closest("[data-testid=file-item]");
    if (!li) return "/";
    return li.dataset.kind === "dir" ? li.dataset.path : parentOf(li.dataset.path);
  }

  tree.addEventListener("click", (event) => {
    const li = event.target.closest("[data-testid=file-item]");
    if (!li) return;
    focusItem(li);
    activate(li);
  });
  tree.addEventListener("keydown", onKey);
  tree.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    menuAt(event.target.closest("[data-testid=file-item]"), event.clientX, event.clientY);
  });
  tree.addEventListener("dragstart", (event) => {
    const li = event.target.closest("[data-testid=file-item]");
    event.dataTransfer.setData(DRAG_TYPE, li.dataset.path);
    event.dataTransfer.effectAllowed = "move";
  });
  tree.addEventListener("dragover", (event) => {
    if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
  });
  tree.addEventListener("drop", (event) => {
    const source = event.dataTransfer.getData(DRAG_TYPE);
    if (!source) return;
    event.preventDefault();
    const folder = dropFolder(event);
    const inside = folder === source || folder.startsWith(`${source}/`);
    if (!inside && parentOf(source) !== folder) actions.onMove(source, folder);
  });

  return { render, select, dropFolder };
}
