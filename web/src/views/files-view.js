// The files side of the workspace: the tree, the open file in the editor, its history, the context menu
// and export / import (a zip, or a local folder). Every workspace change (the agent's, the user's,
// another tab's) refreshes what is shown; refreshes that pile up while one runs collapse into one more.
import { createArchiveView } from "./archive-view.js";
import { coalesced } from "./coalesce.js";
import { createEditorView } from "./editor-view.js";
import { createFileMenu } from "./file-menu.js";
import { createFileTree } from "./file-tree.js";
import { createProblemsList } from "./problems-list.js";
import { createFolderView } from "./folder-view.js";
import { createHistoryView } from "./history-view.js";
import { markProposed } from "./proposal.js";

/** @import { Call } from "../folders/folder-import.js" */
/** @import { TreeEntry } from "./tree-order.js" */
/** @import { Proposal } from "./proposal.js" */
/** @import { DroppedRecord } from "./dropped-list.js" */

/** `onChoose(path)`: the user opened a file (a narrow window then shows the editor); `onShown(path)`: the
 * editor shows `path` (null: no file); `onSelect()`: the selection in the editor changed. `proposal`: the
 * active chat's staged files, shown as proposed (read-only) with a before/after toggle (docs/review.md);
 * `dropped(path)`: the proposals the review dropped for a file, which its history lists.
 * @param {ParentNode} root
 * @param {{ call: Call, onChoose?: (path: string) => void, onShown?: (path: string | null) => void,
 *   onSelect?: () => void, proposal?: Proposal, dropped?: (path: string) => Promise<DroppedRecord[]> }} options */
export function createFilesView(
  root,
  { call, onChoose = (_path) => {}, onShown = (_path) => {}, onSelect = () => {}, proposal, dropped },
) {
  const editorHost = /** @type {HTMLElement} */ (root.querySelector("#file-editor"));
  const title = /** @type {HTMLElement} */ (root.querySelector("#file-title"));
  const empty = /** @type {HTMLElement} */ (root.querySelector("#file-empty"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#files-message"));
  /** @type {string | null} */
  let openPath = null;
  /** @type {Map<string, [number, number, string, string][]>} the checkers' problems, by file */
  let problems = new Map();
  const marker = /** @type {HTMLElement} */ (root.querySelector("[data-testid=editor-proposed]"));
  const showMarker = proposal
    ? markProposed(marker, proposal, {
        after: "The agent's change, not kept yet: read-only here; keep or drop it in the review.",
        before: "The workspace's text, before the agent's proposed change.",
      })
    : () => {};
  const problemsList = createProblemsList(/** @type {HTMLElement} */ (root.querySelector("[data-testid=problems]")));

  /**
   * @param {string} text
   * @param {boolean} [failed]
   */
  function say(text, failed = false) {
    status.textContent = text;
    status.classList.toggle("failed", failed);
  }

  const editor = createEditorView(editorHost, {
    onSave: (path, text, base) =>
      call("writeText", { path, text, base }).catch((/** @type {Error} */ err) =>
        say(`Saving ${path} failed: ${err.message}`, true),
      ),
    onSelect,
  });
  const historyPanel = /** @type {HTMLElement} */ (root.querySelector("[data-testid=history-panel]"));
  const history = createHistoryView(historyPanel, { call, dropped });
  const choose = (/** @type {string} */ path) => {
    onChoose(path);
    return openFile(path);
  };
  const menu = createFileMenu(root, { call, onOpen: choose, onError: (text) => say(text, true) });
  const tree = createFileTree(/** @type {HTMLElement} */ (root.querySelector("[data-testid=file-tree]")), {
    onOpen: choose,
    onMenu: (target, x, y) => menu.openAt(target, x, y),
    onRename: (path) => menu.rename(path),
    onDelete: (path) => menu.remove(path),
    onMove: (source, folder) =>
      call("move", { source, destination: folder }).catch((/** @type {Error} */ err) =>
        say(`Move failed: ${err.message}`, true),
      ),
  });
  createArchiveView(root, { call, onMessage: say });
  createFolderView(root, { call, say, dropTarget: (event) => tree.dropFolder(event) });
  const emptyTree = /** @type {HTMLElement} */ (root.querySelector("[data-testid=files-empty]"));
  /** @type {HTMLElement} */ (emptyTree.querySelector("[data-action=new-file]")).addEventListener("click", () =>
    menu.newFile("/"),
  );
  /** @type {HTMLElement} */ (emptyTree.querySelector("[data-action=import]")).addEventListener("click", () =>
    /** @type {HTMLElement} */ (root.querySelector("[data-testid=import-workspace]")).click(),
  );

  /** @param {string} path */
  function showClosed(path) {
    onShown(null);
    problemsList.show([]);
    editorHost.hidden = true;
    empty.hidden = false;
    const proposed = path && proposal?.has(path);
    title.textContent = path ? `${path} (${proposed ? "not in the workspace yet" : "deleted"})` : "No file open";
  }

  /** The open file as the workspace holds it, or as the active chat proposes it (read-only then).
   * @param {string} path */
  async function show(path) {
    const staged = proposal?.chatFor(path) ?? null;
    const text = await call("readText", staged ? { path, chat: staged } : { path });
    if (path !== openPath) return;
    editor.setReadOnly(staged !== null);
    showMarker(Boolean(proposal?.has(path)));
    if (text === null) {
      showClosed(path);
    } else {
      editor.open(path, text);
      showOpenProblems();
      editorHost.hidden = false;
      empty.hidden = true;
      title.textContent = path;
      onShown(path);
    }
    // A file only the stage holds has no history yet: the panel goes until the file is kept.
    await history.show(path).catch(() => {
      if (path === openPath) historyPanel.hidden = true;
    });
  }

  /** @param {string} path */
  async function openFile(path) {
    if (path !== openPath) await editor.flush();
    openPath = path;
    tree.reveal(path);
    tree.select(path);
    await show(path);
  }

  let listed = false; // the agent's own listing has been shown

  /** Paint a listing read before the agent is up, unless the agent's own listing came first.
   * @param {TreeEntry[]} entries */
  function preview(entries) {
    if (!listed) tree.render(entries);
  }

  async function refreshOnce() {
    /** @type {TreeEntry[]} */
    const entries = await call("list", { dir: "/", recursive: true });
    listed = true;
    tree.render(entries);
    emptyTree.hidden = entries.length > 0;
    tree.select(openPath);
    if (openPath) await show(openPath);
  }

  const refresh = coalesced(refreshOnce); // now, or once more after the refresh that is running
  // What is proposed changed, or the user toggled before / after: the open file is shown again.
  proposal?.onChange(() => {
    if (openPath)
      editor.flush().then(() => {
        if (openPath) return show(openPath);
      });
    else showMarker(false);
  });

  /** The file in the editor with its text and selection, or null when none is shown. */
  function current() {
    if (!openPath || editorHost.hidden) return null;
    return { path: openPath, text: editor.text(), selection: editor.selection(), selected: editor.selected() };
  }

  function showOpenProblems() {
    const rows = (openPath && problems.get(openPath)) || [];
    editor.showProblems(rows);
    problemsList.show(rows);
  }

  /** The checkers' problems changed: the tree's counts, the open file's marks and list follow.
   * @param {Map<string, [number, number, string, string][]>} next */
  function showProblems(next) {
    problems = next;
    tree.showProblems(new Map([...next].filter(([, rows]) => rows.length).map(([path, rows]) => [path, rows.length])));
    if (openPath && !editorHost.hidden) showOpenProblems();
  }

  return {
    refresh,
    openFile,
    showProblems,
    preview,
    current,
    flush: () => editor.flush(),
    busy: () => editor.busy(),
    path: () => openPath,
    say,
  };
}
