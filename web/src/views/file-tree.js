// The workspace tree: folders that fold, an icon per kind of file, keyboard navigation (arrows, Enter,
// F2, Delete, the context-menu key), and drag and drop to move. It shows the list it is given and
// reports what the user asks for to its callbacks. Only what can be seen is built: a collapsed folder
// has no rows inside; a refresh re-uses the rows it has, by path (docs/folders.md, "A big tree").
import { ancestorsOf, depthOf, groupByParent, nameOf, parentOf } from "./tree-order.js";

/** @import { TreeEntry } from "./tree-order.js" */
/** What the tree reports to its owner.
 * @typedef {{ onOpen: (path: string) => void, onMenu: (target: TreeEntry, x: number, y: number) => void,
 *   onRename: (path: string) => void, onDelete: (path: string) => void,
 *   onMove: (source: string, folder: string) => void }} TreeActions */

/** @type {Record<string, string>} */
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

// How many entries make a big tree: folders first seen in one start collapsed, as desktop editors show a
// big project. Building all 10,200 rows of a 10,000-file import took the page one task of about 1 s.
const BIG_TREE = 2_000;
// At most this many new rows are built in one task; a bigger folder gets the rest in the next tasks.
const SLICE = 400;

/** @param {TreeEntry} entry */
function icon(entry) {
  const span = document.createElement("span");
  span.className = "file-icon";
  span.setAttribute("aria-hidden", "true");
  const extension = nameOf(entry.path).split(".").slice(1).pop()?.toLowerCase() ?? "";
  span.dataset.type = entry.kind === "dir" ? "dir" : extension || "file";
  // The glyph is drawn by the style sheet, so a row's text is its name alone: a row's accessible
  // name comes from its content (the tree pattern), and a folder is told by its aria-expanded.
  span.dataset.glyph = entry.kind === "dir" ? "" : ICONS[extension] || "··";
  return span;
}

/**
 * @param {HTMLElement} tree
 * @param {TreeActions} actions
 */
export function createFileTree(tree, actions) {
  /** @type {Map<string, boolean>} */
  const opened = new Map(); // folder → open; set when the folder is first seen, then as the user folds it
  /** @type {Map<string, HTMLLIElement>} */
  const rows = new Map(); // path → its row, for every row built
  /** @type {Map<string, TreeEntry[]>} */
  let groups = new Map(); // folder → its entries in tree order, from the last listing
  /** @type {string | null} */
  let selected = null;
  /** @type {Set<string>} */
  const pending = new Set(); // folders with rows still to build in a later task
  let scheduled = false;
  /** @type {Map<string, number>} */
  let problemCounts = new Map(); // file → how many problems the checkers found in it (docs/problems.md)

  /**
   * @param {TreeEntry} entry
   * @param {number} depth
   */
  function item(entry, depth) {
    const li = document.createElement("li");
    Object.assign(li, { className: `file-item ${entry.kind}`, role: "treeitem", tabIndex: -1, draggable: true });
    Object.assign(li.dataset, { testid: "file-item", path: entry.path, kind: entry.kind });
    li.setAttribute("aria-level", String(depth + 1));
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
    markProblems(li);
    if (entry.kind === "dir") {
      const group = document.createElement("ul");
      group.role = "group";
      li.append(group);
      const open = opened.get(entry.path) === true;
      li.setAttribute("aria-expanded", String(open));
      group.hidden = !open;
    }
    return li;
  }

  /** A folder's group: the tree itself for the root, else the folder row's last child. */
  const groupOf = (/** @type {string} */ folder) =>
    /** @type {HTMLElement | undefined} */ (folder === "/" ? tree : rows.get(folder)?.lastElementChild);

  /** Bring `folder`'s rows in line with the listing, and those of its open folders: rows are re-used by
   * path (the row that has the focus keeps it). At most `budget.left` new rows; the rest come later.
   * @param {string} folder
   * @param {{ left: number }} budget */
  function fill(folder, budget) {
    const group = groupOf(folder);
    if (!group) return;
    const entries = groups.get(folder) || [];
    dropStale(group, entries);
    const depth = folder === "/" ? 0 : depthOf(folder) + 1;
    let cursor = /** @type {Element | null} */ (group.firstElementChild); // the rows left are in tree order: new ones go between them
    for (const entry of entries) {
      let li = rows.get(entry.path);
      if (!li) {
        if (budget.left <= 0) {
          later(folder);
          return;
        }
        budget.left -= 1;
        li = item(entry, depth);
        rows.set(entry.path, li);
      }
      if (li === cursor) cursor = /** @type {Element} */ (cursor).nextElementSibling;
      else group.insertBefore(li, cursor);
      if (entry.kind === "dir" && opened.get(entry.path)) fill(entry.path, budget);
    }
  }

  /** Drop the rows of `group` the listing no longer has (or has as the other kind).
   * @param {HTMLElement} group
   * @param {TreeEntry[]} entries */
  function dropStale(group, entries) {
    const kinds = new Map(entries.map((entry) => [entry.path, entry.kind]));
    for (const li of /** @type {HTMLLIElement[]} */ ([...group.children])) {
      if (kinds.get(/** @type {string} */ (li.dataset.path)) !== li.dataset.kind) drop(li);
    }
  }

  /** Remove a row and forget it and the rows inside it.
   * @param {HTMLLIElement} li */
  function drop(li) {
    for (const inner of li.querySelectorAll("[data-testid=file-item]"))
      rows.delete(/** @type {string} */ (/** @type {HTMLElement} */ (inner).dataset.path));
    rows.delete(/** @type {string} */ (li.dataset.path));
    li.remove();
  }

  /** @param {string} folder */
  function later(folder) {
    pending.add(folder);
    if (scheduled) return;
    scheduled = true;
    setTimeout(buildPending, 0);
  }

  function buildPending() {
    scheduled = false;
    const folders = [...pending];
    pending.clear();
    const budget = { left: SLICE };
    for (const folder of folders) if (folder === "/" || opened.get(folder)) fill(folder, budget);
    keepTabStop();
  }

  /** One row is reached by Tab: the one that was, else the selected one, else the first. */
  function keepTabStop() {
    if (tree.querySelector("[data-testid=file-item][tabindex='0']")) return;
    const again = /** @type {HTMLElement | null} */ (
      rows.get(/** @type {string} */ (selected)) || tree.firstElementChild
    );
    if (again) again.tabIndex = 0;
  }

  /**
   * @param {HTMLLIElement} li
   * @param {boolean} open
   */
  function setExpanded(li, open) {
    const folder = /** @type {string} */ (li.dataset.path);
    li.setAttribute("aria-expanded", String(open));
    /** @type {HTMLElement} */ (li.lastElementChild).hidden = !open;
    opened.set(folder, open);
    if (open) fill(folder, { left: SLICE });
    else
      for (const inner of [.../** @type {HTMLElement} */ (li.lastElementChild).children])
        drop(/** @type {HTMLLIElement} */ (inner));
  }

  /** @param {TreeEntry[]} entries */
  function render(entries) {
    const big = entries.length > BIG_TREE;
    for (const entry of entries) {
      if (entry.kind === "dir" && !opened.has(entry.path)) opened.set(entry.path, !big);
    }
    groups = groupByParent(entries);
    pending.clear();
    fill("/", { left: big ? SLICE : Infinity });
    keepTabStop();
  }

  /** Open the folders `path` lies in and build its row (a file opened from elsewhere, such as the
   * agent's write the editor follows); a folder not listed yet opens when it is.
   * @param {string} path */
  function reveal(path) {
    for (const folder of ancestorsOf(path)) {
      opened.set(folder, true);
      if (!rows.has(folder)) fill(parentOf(folder), { left: Infinity });
      const li = rows.get(folder);
      if (!li) continue;
      li.setAttribute("aria-expanded", "true");
      /** @type {HTMLElement} */ (li.lastElementChild).hidden = false;
    }
    fill(parentOf(path), { left: Infinity });
  }

  /** @param {string | null} path */
  function select(path) {
    rows.get(/** @type {string} */ (selected))?.setAttribute("aria-selected", "false");
    selected = path;
    rows.get(/** @type {string} */ (path))?.setAttribute("aria-selected", "true");
  }

  const visible = () =>
    /** @type {HTMLLIElement[]} */ ([...tree.querySelectorAll("[data-testid=file-item]")]).filter(
      (li) => li.offsetParent,
    );

  /** @param {HTMLElement | null | undefined} li */
  function focusItem(li) {
    if (!li) return;
    for (const other of tree.querySelectorAll("[tabindex='0']")) /** @type {HTMLElement} */ (other).tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
  }

  /** @param {HTMLLIElement} li */
  function activate(li) {
    if (li.dataset.kind === "dir") setExpanded(li, li.getAttribute("aria-expanded") !== "true");
    else actions.onOpen(/** @type {string} */ (li.dataset.path));
  }

  /**
   * @param {HTMLLIElement | null} li
   * @param {number} x
   * @param {number} y
   */
  function menuAt(li, x, y) {
    actions.onMenu(
      li
        ? { path: /** @type {string} */ (li.dataset.path), kind: /** @type {string} */ (li.dataset.kind) }
        : { path: "/", kind: "dir" },
      x,
      y,
    );
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const li = /** @type {HTMLLIElement | null} */ (
      /** @type {Element} */ (event.target).closest("[data-testid=file-item]")
    );
    if (!li || event.target !== li) return;
    const open = li.getAttribute("aria-expanded") === "true";
    const list = visible();
    const at = list.indexOf(li);
    /** @type {Record<string, () => unknown>} */
    const keys = {
      ArrowDown: () => focusItem(list[at + 1]),
      ArrowUp: () => focusItem(list[at - 1]),
      Home: () => focusItem(list[0]),
      End: () => focusItem(list.at(-1)),
      ArrowRight: () => li.dataset.kind === "dir" && (open ? focusItem(list[at + 1]) : setExpanded(li, true)),
      ArrowLeft: () =>
        open
          ? setExpanded(li, false)
          : focusItem(/** @type {HTMLElement} */ (li.parentElement).closest("[data-testid=file-item]")),
      Enter: () => activate(li),
      " ": () => activate(li),
      F2: () => actions.onRename(/** @type {string} */ (li.dataset.path)),
      Delete: () => actions.onDelete(/** @type {string} */ (li.dataset.path)),
      ContextMenu: () => menuAt(li, li.getBoundingClientRect().left + 24, li.getBoundingClientRect().bottom),
    };
    const key = event.key === "F10" && event.shiftKey ? "ContextMenu" : event.key;
    if (!keys[key]) return;
    event.preventDefault();
    keys[key]();
  }

  /** @param {Event} event */
  function dropFolder(event) {
    const li = /** @type {HTMLLIElement | null} */ (
      /** @type {Element} */ (event.target).closest("[data-testid=file-item]")
    );
    if (!li) return "/";
    return li.dataset.kind === "dir"
      ? /** @type {string} */ (li.dataset.path)
      : parentOf(/** @type {string} */ (li.dataset.path));
  }

  tree.addEventListener("click", (event) => {
    const li = /** @type {HTMLLIElement | null} */ (
      /** @type {Element} */ (event.target).closest("[data-testid=file-item]")
    );
    if (!li) return;
    focusItem(li);
    activate(li);
  });
  tree.addEventListener("keydown", onKey);
  tree.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    menuAt(
      /** @type {HTMLLIElement | null} */ (/** @type {Element} */ (event.target).closest("[data-testid=file-item]")),
      event.clientX,
      event.clientY,
    );
  });
  tree.addEventListener("dragstart", (event) => {
    const li = /** @type {HTMLLIElement} */ (
      /** @type {HTMLLIElement | null} */ (/** @type {Element} */ (event.target).closest("[data-testid=file-item]"))
    );
    /** @type {DataTransfer} */ (event.dataTransfer).setData(DRAG_TYPE, /** @type {string} */ (li.dataset.path));
    /** @type {DataTransfer} */ (event.dataTransfer).effectAllowed = "move";
  });
  tree.addEventListener("dragover", (event) => {
    if (!(/** @type {DataTransfer} */ (event.dataTransfer).types.includes(DRAG_TYPE))) return;
    event.preventDefault();
    /** @type {DataTransfer} */ (event.dataTransfer).dropEffect = "move";
  });
  tree.addEventListener("drop", (event) => {
    const source = /** @type {DataTransfer} */ (event.dataTransfer).getData(DRAG_TYPE);
    if (!source) return;
    event.preventDefault();
    const folder = dropFolder(event);
    const inside = folder === source || folder.startsWith(`${source}/`);
    if (!inside && parentOf(source) !== folder) actions.onMove(source, folder);
  });

  /** A file's row says how many problems it has (a badge, `file-problems`); none: no badge.
   * @param {HTMLLIElement} li */
  function markProblems(li) {
    const count = problemCounts.get(/** @type {string} */ (li.dataset.path)) ?? 0;
    const row = /** @type {HTMLElement} */ (li.firstElementChild);
    let badge = /** @type {HTMLElement | null} */ (row.querySelector(":scope > .file-problems"));
    if (!count) return badge?.remove();
    if (!badge) {
      badge = Object.assign(document.createElement("span"), { className: "file-problems" });
      badge.dataset.testid = "file-problems";
      row.append(badge);
    }
    badge.dataset.count = String(count);
    badge.textContent = String(count);
    badge.title = `${count} problem${count === 1 ? "" : "s"}`;
  }

  /** Show the problem counts of the files (path → count); rows built later get theirs when built.
   * @param {Map<string, number>} counts */
  function showProblems(counts) {
    const touched = new Set([...problemCounts.keys(), ...counts.keys()]);
    problemCounts = counts;
    for (const path of touched) {
      const li = rows.get(path);
      if (li) markProblems(li);
    }
  }

  return { render, select, reveal, dropFolder, showProblems };
}
