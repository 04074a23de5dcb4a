// Editing, regenerating and switching versions of messages, as chat apps do. "Edit" puts a user
// message back into the composer: sending it starts a new branch from there (the old one stays, behind
// the "2/2" switcher), optionally after restoring the files to before that message's turn.
// "Regenerate" answers the last user message again as a new version of the answer. The engine keeps the
// tree; the page shows the active path and re-draws it from the engine's snapshot after a switch.
import { button } from "./dom.js";

/** Where a message sits in the chat tree: its id and turn, and which of how many versions it is.
 * @typedef {{id?: string, turn?: string, node?: string, branch?: number, branches?: number}} BranchPlace */
/** @typedef {import("./chat-record.js").ChatRecord} ChatRecord */
/** A chat as these controls see it: read-only, the chat view owns it (`actions.branchFrom` changes it).
 * @typedef {Readonly<import("./chat-record.js").ChatRecord>} Chat */
/** @typedef {import("./message-view.js").MessageView} MessageView */
/** The edit under way: the message, its id, and the turn its files can be restored to.
 * @typedef {{chat: Chat, view: MessageView, id: string | undefined, turn: string | null}} Editing */

/** `actions.branchFrom(chat, el)`: everything shown after `el` goes, and the next turn starts a new branch.
 * @param {{onRegenerate: (chat: Chat) => void, restorePoint: (chat: Chat, message: string) => Promise<string | null>,
 *   branchFrom: (chat: ChatRecord, el: Element) => void, onSwitch: (chat: Chat, node: string, index: number) => unknown}} actions
 * @param {ParentNode} root
 */
export function createBranchControls(root, actions) {
  const input = /** @type {HTMLTextAreaElement} */ (root.querySelector("[data-testid=chat-input]"));
  const composer = /** @type {HTMLElement} */ (root.querySelector(".composer"));
  const bar = document.createElement("div");
  bar.className = "edit-bar";
  bar.dataset.testid = "edit-bar";
  bar.hidden = true;
  const label = Object.assign(document.createElement("span"), {
    textContent: "Editing a message: sending starts a new branch",
  });
  const restore = Object.assign(document.createElement("input"), { type: "checkbox" });
  restore.dataset.testid = "edit-restore-files";
  const restoreLabel = document.createElement("label");
  restoreLabel.append(restore, " Restore files to before this message");
  const cancel = button("Cancel", "edit-cancel", () => cancelEdit());
  bar.append(label, restoreLabel, cancel);
  composer.before(bar);
  /** @type {Editing | null} */
  let editing = null;
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && editing) {
      event.stopPropagation();
      cancelEdit();
    }
  });

  /** A user message shown: its Edit action, and its switcher when it is one of several versions.
   * @param {Chat} chat @param {MessageView} view @param {BranchPlace} [data] */
  function user(chat, view, data = {}) {
    if (data.id) view.el.dataset.messageId = data.id;
    const row = actionsRow(view);
    row.append(button("Edit", "message-edit", () => startEdit(chat, view)));
    if (/** @type {number} */ (data.branches) > 1)
      row.prepend(switcher(chat, /** @type {Required<BranchPlace>} */ (data)));
  }

  /** An assistant message shown: its switcher when it starts one of several versions of an answer. */
  /** @param {Chat} chat @param {MessageView} view @param {BranchPlace} [data] */
  function assistant(chat, view, data = {}) {
    if (/** @type {number} */ (data.branches) > 1)
      actionsRow(view).prepend(switcher(chat, /** @type {Required<BranchPlace>} */ (data)));
  }

  /** The Regenerate action goes on the newest answer only (on the last message of yours when its turn
   * left no answer, as after a failure). */
  /** @param {Chat} chat */
  function lastAnswer(chat) {
    for (const old of chat.list.querySelectorAll("[data-testid=message-regenerate]")) old.remove();
    const shown = chat.list.querySelectorAll("[data-testid=message]");
    const users = chat.list.querySelectorAll("[data-testid=message][data-role=user]");
    const lastUser = users[users.length - 1];
    if (!lastUser) return;
    const regenerate = button("Regenerate", "message-regenerate", () => {
      if (chat.busy) return;
      cancelEdit(chat);
      actions.branchFrom(chat, lastUser);
      actions.onRegenerate(chat);
    });
    regenerate.title = "Answer the last message again (the current answer stays as another version)";
    actionsRow({ el: shown[shown.length - 1] }).append(regenerate);
  }

  /** @param {Chat} chat @param {Required<BranchPlace>} place (a message with versions has all its fields) */
  function switcher(chat, { branch, branches, node }) {
    const box = document.createElement("span");
    box.className = "branch-switch";
    box.dataset.testid = "branch-switch";
    box.dataset.branch = String(branch);
    box.dataset.branches = String(branches);
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `Version ${branch} of ${branches}`);
    /** @param {number} index */
    const go = (index) => !chat.busy && actions.onSwitch(chat, node, (index + branches) % branches);
    const previous = button("", "branch-previous", () => go(branch - 2));
    previous.setAttribute("aria-label", "Previous version");
    previous.className = "branch-previous";
    previous.disabled = branch <= 1;
    const next = button("", "branch-next", () => go(branch));
    next.setAttribute("aria-label", "Next version");
    next.className = "branch-next";
    next.disabled = branch >= branches;
    const count = Object.assign(document.createElement("span"), { textContent: `${branch}/${branches}` });
    count.addEventListener("click", () => go(branch)); // the count itself steps to the next version
    box.append(previous, count, next);
    return box;
  }

  /** @param {Chat} chat @param {MessageView} view */
  function startEdit(chat, view) {
    if (chat.busy) return;
    cancelEdit();
    editing = { chat, view, id: view.el.dataset.messageId, turn: null };
    /** @type {Editing} */
    const edit = editing;
    view.el.classList.add("editing");
    input.value = view.text;
    restore.checked = false;
    restoreLabel.hidden = true;
    bar.dataset.restorePoint = "asking";
    bar.hidden = false;
    input.focus();
    // The offer stands only when files changed from this message on.
    actions.restorePoint(chat, /** @type {string} */ (edit.id)).then((turn) => {
      if (editing !== edit) return;
      bar.dataset.restorePoint = turn || "none";
      if (!turn) return;
      edit.turn = turn;
      restoreLabel.hidden = false;
    });
  }

  /** Leave editing (only when it is in `chat`, if one is given: that chat is drawn again). */
  /** @param {Chat | null} [chat] */
  function cancelEdit(chat = null) {
    if (chat && editing?.chat !== chat) return;
    editing?.view.el.classList.remove("editing");
    editing = null;
    bar.hidden = true;
  }

  /** At send: the edit under way in this chat, if any; its messages leave the page (they stay in the
   * other branch). Returns `{edit, restoreTurn}` for the send, or null. */
  /** @param {Chat} chat */
  function takeEdit(chat) {
    if (!editing || editing.chat !== chat || !editing.id) return cancelEdit();
    const { view, id, turn } = editing;
    const restoreTurn = restore.checked && turn ? turn : null;
    cancelEdit();
    actions.branchFrom(chat, view.el);
    view.el.remove();
    return { edit: id, restoreTurn };
  }

  return { user, assistant, lastAnswer, takeEdit, cancelEdit };
}

/** @param {{el: Element}} view */
function actionsRow(view) {
  let row = view.el.querySelector(":scope > .message-actions");
  if (!row) {
    row = document.createElement("div");
    row.className = "message-actions";
    view.el.append(row);
  }
  return row;
}
