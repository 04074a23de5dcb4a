// The review panel (docs/review.md): the active chat's staged changes, shown while its stage holds any.
// Every changed file with its +/- counts; the open file's hunks with Keep / Drop each; Keep all / Drop
// all; a comment (overall, or on the selected hunk) that "Request changes" sends to the agent as the
// chat's next message. Keyboard-first: the keys below work anywhere in the panel but its text field, and
// after each decision focus moves to what is still to decide.
import { coalesced } from "./coalesce.js";
import { button, el } from "./dom.js";
import { detailOf } from "./review-detail.js";
import { nextPending, requestMessage, step } from "./review-diff.js";

/** @import { StagedFile } from "./review-detail.js" */
/** @import { Proposal } from "./proposal.js" */
/** What `stage.review` answers.
 * @typedef {{path: string, change: string, source: string | null, state: string, added: number,
 *   removed: number, instructions: boolean, binary: boolean}} ReviewFile
 * @typedef {{chat: string, turn: string | null, pending: number, held: string[], files: ReviewFile[]}} Review */
/** What the panel asks of the page.
 * @typedef {{call: (method: string, args: object) => Promise<any>, activeChat: () => string | null,
 *   proposal: Proposal, onRequest: (text: string) => unknown, onEdit: (path: string) => unknown,
 *   onClosed: () => unknown}} ReviewActions */

export const KEY_HELP =
  "Keys: J / K next / previous file, N / P next / previous hunk, Y keep, D drop (the selected hunk, else the " +
  "open file), C comment, Escape back from the comment.";

/** The panel's fixed parts. */
function skeleton() {
  const panel = el("section", "review", null, {
    testid: "review-panel",
    "aria-labelledby": "review-title",
    "aria-describedby": "review-keys",
    "aria-keyshortcuts": "J K N P Y D C",
  });
  const summary = el("span", "review-summary", "", { role: "status", "aria-live": "polite" });
  const keepAll = button("Keep all", "review-keep-all", () => {});
  const dropAll = button("Drop all", "review-drop-all", () => {});
  keepAll.dataset.focus = "keep-all";
  dropAll.dataset.focus = "drop-all";
  const top = el("header", "review-head");
  top.append(
    el("h2", "review-title", "Proposed changes", { id: "review-title" }),
    summary,
    el("span", "spacer"),
    keepAll,
    dropAll,
  );
  const held = el("p", "review-held", null, { testid: "review-held", role: "note" });
  const files = el("ul", "review-files", null, { "aria-label": "Changed files" });
  const detail = el("div", "review-detail", null, { role: "region", "aria-labelledby": "review-open-title" });
  const body = el("div", "review-body");
  body.append(files, detail);
  const comment = el("textarea", "review-comment", null, {
    testid: "review-comment",
    rows: "2",
    "aria-describedby": "review-target",
    placeholder: "What should the agent change?",
  });
  const target = el("span", "review-target", "Overall comment", { id: "review-target" });
  const overall = button("Comment on the whole change", "review-comment-overall", () => {});
  const send = button("Request changes", "review-request-changes", () => {});
  const label = el("label", "review-comment-label", "Comment ");
  label.append(comment);
  const foot = el("div", "review-foot");
  foot.append(label, target, overall, send);
  const message = el("p", "review-message", null, { role: "status", "aria-live": "polite" });
  panel.append(top, el("p", "review-keys", KEY_HELP, { id: "review-keys" }), held, body, foot, message);
  held.hidden = true;
  return { panel, summary, keepAll, dropAll, held, files, detail, comment, target, overall, send, message };
}

/** A file's row: the button that opens it (named with everything the row shows), counts, flags, state.
 * @param {ReviewFile} file @param {boolean} open @param {(path: string) => void} onOpen */
function fileRow(file, open, onOpen) {
  const row = el("li", "review-file", null, { testid: "review-file" });
  Object.assign(row.dataset, { path: file.path, change: file.change, state: file.state });
  const facts = [file.change, `${file.added} added`, `${file.removed} removed`, file.state];
  if (file.instructions) facts.push("instructions");
  if (file.source) facts.push(`moved from ${file.source}`);
  const opener = button(file.path, null, () => onOpen(file.path));
  opener.className = "review-file-open";
  opener.dataset.focus = `file:${file.path}`;
  opener.setAttribute("aria-label", `${file.path}: ${facts.join(", ")}`);
  if (open) opener.setAttribute("aria-current", "true");
  const stat = el("span", "review-stat");
  stat.append(el("span", "add", `+${file.added}`), " ", el("span", "del", `\u2212${file.removed}`));
  row.append(opener, stat);
  if (file.instructions) row.append(el("span", "review-flag", "instructions"));
  if (file.source) row.append(el("span", "review-moved", `moved from ${file.source}`));
  row.append(el("span", "review-state", file.state));
  return row;
}

/** @param {HTMLElement} anchor the element the panel goes after @param {ReviewActions} actions */
export function createReviewView(anchor, { call, activeChat, proposal, onRequest, onEdit, onClosed }) {
  const parts = skeleton();
  const { panel } = parts;
  /** @type {Review | null} */
  let review = null;
  let said = ""; // the last review shown, as JSON: an unchanged one is not drawn again
  /** @type {StagedFile | null} */
  let file = null; // the open file
  let selected = -1; // the selected hunk's position in the open file
  /** @type {string[]} instruction files Keep all left pending (its answer names them), while still pending */
  let held = [];
  let deciding = 0; // decisions on their way: each answers with the review after it, newer than a refresh's

  const chat = () => /** @type {string} */ (review?.chat);
  // A file in conflict waits for the user as a pending one does.
  const states = () => (review?.files || []).map((f) => (f.state === "conflict" ? "pending" : f.state));
  const position = () => (review?.files || []).findIndex((f) => f.path === file?.path);

  /** Keep the focus on the same control across a redraw (found again by its data-focus key). */
  async function keepingFocus(/** @type {() => Promise<unknown>} */ draw) {
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    const key = panel.contains(focused) ? focused?.dataset.focus : undefined;
    await draw();
    if (key) /** @type {HTMLElement | null} */ (panel.querySelector(`[data-focus="${CSS.escape(key)}"]`))?.focus();
  }

  async function refreshOnce() {
    if (deciding) return;
    const asked = activeChat();
    const answer = asked ? await call("stage.review", { chat: asked }).catch(warned) : null;
    if (asked !== activeChat()) return; // another refresh follows for the chat shown now
    await keepingFocus(() => show(answer, asked));
  }
  const refresh = coalesced(refreshOnce);

  /** Show `answer` (a Review of `asked`), or close the panel when its stage holds nothing.
   * @param {Review | null} answer @param {string | null} asked */
  async function show(answer, asked) {
    if (!answer || answer.chat !== asked || (answer.pending <= 0 && !answer.held?.length)) return close(asked);
    const json = JSON.stringify(answer);
    if (json === said && panel.isConnected) return;
    said = json;
    review = answer;
    const waiting = new Set(answer.files.filter((f) => f.state === "pending").map((f) => f.path));
    held = [...new Set([...(answer.held || []), ...held])].filter((path) => waiting.has(path));
    proposal.set(answer.chat, answer.files);
    if (!panel.isConnected) anchor.after(panel);
    panel.dataset.turn = answer.turn ?? "";
    drawSummary();
    const open = answer.files.find((f) => f.path === file?.path) ? file?.path : firstToOpen(answer);
    await openFile(open ?? null, false);
  }

  /** The file shown first: the first pending one that is not an instruction file (those open only when
   * the user asks, since opening one counts as having shown it). @param {Review} answer */
  function firstToOpen(answer) {
    return answer.files.find((f) => f.state !== "kept" && f.state !== "dropped" && !f.instructions)?.path;
  }

  /** @param {string | null} asked */
  function close(asked) {
    const hadFocus = panel.contains(document.activeElement);
    proposal.set(asked, null);
    review = file = null;
    said = "";
    held = [];
    if (!panel.isConnected) return;
    panel.remove();
    if (hadFocus) onClosed();
  }

  function drawSummary() {
    const files = review?.files || [];
    const added = files.reduce((sum, f) => sum + f.added, 0);
    const removed = files.reduce((sum, f) => sum + f.removed, 0);
    const count = `${files.length} file${files.length === 1 ? "" : "s"}`;
    parts.summary.textContent = `${count}, +${added} \u2212${removed}, ${review?.pending} to decide`;
    parts.held.hidden = !held.length;
    parts.held.textContent = held.length
      ? `Not kept yet: ${held.join(", ")}. These change the agent's instructions: open each to read it, then keep or drop it.`
      : "";
    parts.files.replaceChildren(...files.map((f) => fileRow(f, f.path === file?.path, (path) => openFile(path, true))));
  }

  /** Open `path` in the detail (null: none); `focus` moves focus to its first hunk to decide.
   * @param {string | null} path @param {boolean} focus */
  async function openFile(path, focus) {
    const answer = path ? await call("stage.file", { chat: chat(), path }).catch(warned) : null;
    if (answer && answer.path !== path) return;
    if (answer?.path !== file?.path) selected = -1;
    file = answer;
    drawSummary();
    parts.detail.replaceChildren(...(file ? detailOf(file, detailActions) : []));
    if (selected >= (file?.hunks.length ?? 0)) selected = -1;
    markSelected();
    if (focus) focusFile();
  }

  const detailActions = {
    hunk: (/** @type {number} */ at, /** @type {"keep" | "drop"} */ verb) => decideHunk(at, verb),
    file: (/** @type {"keep" | "drop"} */ verb) => decide(verb, { paths: [file?.path] }, -1),
    select: (/** @type {number} */ at) => select(at, false),
    resolve: (/** @type {string} */ take) => decide("resolve", { path: file?.path, take }, -1),
    edit: () => file && onEdit(file.path),
  };

  /** @param {number} at @param {"keep" | "drop"} verb */
  function decideHunk(at, verb) {
    const index = file?.hunks[at]?.index;
    if (index === null || index === undefined) return;
    decide(verb, { path: file?.path, hunks: [index] }, at);
  }

  /** A decision on the stage; then focus goes to the next thing to decide (from hunk position `at`).
   * @param {string} verb @param {object} args @param {number} at */
  async function decide(verb, args, at) {
    deciding += 1;
    const answer = await call(`stage.${verb}`, { chat: chat(), ...args })
      .catch(warned)
      .finally(() => (deciding -= 1));
    if (!answer) return;
    said = ""; // the open file's hunks changed even where the review's counts did not
    await show(answer, answer.chat);
    if (panel.isConnected) focusNext(at);
  }

  /** After a decision: the open file's next pending hunk, else the next file with something to decide.
   * @param {number} at */
  function focusNext(at) {
    const hunks = (file?.hunks || []).map((h) => h.state);
    const next = nextPending(hunks, Math.max(at, 0) - (at < 0 ? 1 : 0), 1);
    if (file?.state === "pending" && next >= 0) return select(next, true);
    const other = nextPending(states(), position(), 1);
    if (other >= 0 && review) return openFile(review.files[other].path, true);
    parts.keepAll.focus();
  }

  /** Focus the open file's first pending hunk, else its row. */
  function focusFile() {
    const first = nextPending(
      (file?.hunks || []).map((h) => h.state),
      -1,
      1,
    );
    if (first >= 0) return select(first, true);
    /** @type {HTMLElement | null} */ (parts.files.querySelector("[aria-current=true]"))?.focus();
  }

  /** @param {number} at @param {boolean} focus */
  function select(at, focus) {
    selected = at;
    markSelected();
    const box = /** @type {HTMLElement | null} */ (parts.detail.querySelector(`[data-position="${at}"]`));
    if (focus && box) {
      box.focus();
      box.scrollIntoView({ block: "nearest" });
    }
  }

  function markSelected() {
    for (const box of parts.detail.querySelectorAll("[data-testid=review-hunk]"))
      box.classList.toggle("selected", box.getAttribute("data-position") === String(selected));
    parts.target.textContent =
      selected >= 0 && file ? `On hunk ${selected + 1} of ${file.hunks.length} in ${file.path}` : "Overall comment";
    parts.overall.hidden = selected < 0;
  }

  function backFromComment() {
    if (selected >= 0) return select(selected, true);
    /** @type {HTMLElement} */ (parts.files.querySelector("[aria-current=true]") || parts.keepAll).focus();
  }

  /** @param {number} direction */
  function moveFile(direction) {
    const to = step(review?.files.length ?? 0, position(), direction);
    if (to >= 0 && review) openFile(review.files[to].path, true);
  }

  /** @param {"keep" | "drop"} verb */
  function decideSelected(verb) {
    if (selected >= 0) return decideHunk(selected, verb);
    if (file?.state === "pending") decide(verb, { paths: [file.path] }, -1);
  }

  /** @type {Record<string, () => unknown>} */
  const KEYS = {
    j: () => moveFile(1),
    k: () => moveFile(-1),
    n: () => select(step(file?.hunks.length ?? 0, selected, 1), true),
    p: () => select(step(file?.hunks.length ?? 0, selected, -1), true),
    y: () => decideSelected("keep"),
    d: () => decideSelected("drop"),
    c: () => parts.comment.focus(),
  };

  panel.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.closest("textarea, input, select")) {
      if (event.key === "Escape") backFromComment();
      return;
    }
    const run = KEYS[event.key.toLowerCase()];
    if (!run) return;
    event.preventDefault();
    run();
  });

  function requestChanges() {
    const hunk = selected >= 0 ? file?.hunks[selected] : undefined;
    const text = requestMessage({
      comment: parts.comment.value,
      path: hunk ? file?.path : null,
      change: file?.change,
      hunks: hunk ? [hunk] : [],
    });
    if (!text) {
      parts.message.textContent = "Write what the agent should change first.";
      return parts.comment.focus();
    }
    parts.comment.value = "";
    parts.message.textContent = "Sent to the agent: its next turn works on this proposal.";
    onRequest(text);
  }

  parts.keepAll.addEventListener("click", () => decide("keepAll", {}, -1));
  parts.dropAll.addEventListener("click", () => decide("dropAll", {}, -1));
  parts.overall.addEventListener("click", () => {
    select(-1, false);
    parts.comment.focus();
  });
  parts.send.addEventListener("click", requestChanges);

  return {
    refresh,
    /** The workspace changed (the user, another chat's keep, the folder on disk): a shown review is read
     * again, since a staged file may now be in conflict. */
    workspaceChanged() {
      if (panel.isConnected) refresh();
    },
    /** A chat event: the active chat's stage changed, or its turn ended.
     * @param {string} chatId @param {{kind?: unknown}} event */
    handle(chatId, event) {
      if (chatId === activeChat() && (event?.kind === "stage_changed" || event?.kind === "turn_end")) refresh();
    },
  };
}

/** A failed call is logged; the panel shows what it had. @param {unknown} err @returns {null} */
function warned(err) {
  console.warn("agentlite: review", err);
  return null;
}
