// One file of the review, opened: its head (what changed, keep or drop the whole file, open it in the
// editor), its hunks with Keep / Drop each (drawn by diff-view.js), or the three sides of a conflict with
// the answers to it. Only builds elements: the review view owns the state and the calls.
import { button, el } from "./dom.js";
import { renderDiff } from "./diff-view.js";

/** What `stage.file` answers.
 * @typedef {{index: number | null, state: string, header: string, lines: string[]}} StagedHunk
 * @typedef {{base: string | null, theirs: string | null, ours: string | null, merged: string | null}} Conflict
 * @typedef {{path: string, change: string, state: string, instructions: boolean, binary: boolean,
 *   source?: string | null, before: string | null, after: string | null, hunks: StagedHunk[],
 *   conflict: Conflict | null}} StagedFile */
/** What the detail asks of the review view.
 * @typedef {{hunk: (position: number, verb: "keep" | "drop") => void, file: (verb: "keep" | "drop") => void,
 *   select: (position: number) => void, resolve: (take: string) => void, edit: () => void}} DetailActions */

const CHANGE_WORD = /** @type {Record<string, string>} */ ({
  created: "new file",
  edited: "edited",
  deleted: "deleted",
  moved: "moved",
});

/** The head of the open file: its path, what changed, and the whole-file answers.
 * @param {StagedFile} file @param {DetailActions} actions */
function head(file, actions) {
  const title = el("h3", "review-file-title", file.path, { id: "review-open-title" });
  const facts = [CHANGE_WORD[file.change] || file.change, file.state];
  if (file.source) facts.push(`moved from ${file.source}`);
  if (file.instructions) facts.push("instructions: the agent's own rules");
  const decided = file.state !== "pending";
  const keep = button("Keep file", "review-file-keep", () => actions.file("keep"));
  const drop = button("Drop file", "review-file-drop", () => actions.file("drop"));
  keep.setAttribute("aria-label", `Keep file ${file.path}: every change`);
  drop.setAttribute("aria-label", `Drop file ${file.path}: every change`);
  keep.disabled = drop.disabled = decided;
  const edit = button("Open in editor", "review-file-editor", () => actions.edit());
  edit.setAttribute("aria-label", `Open in editor: ${file.path}, as proposed`);
  const row = el("div", "review-file-head");
  row.append(title, el("span", "review-file-facts", facts.join(" · ")), el("span", "spacer"), keep, drop, edit);
  return row;
}

/** One hunk: its state, Keep and Drop (a decided hunk's are disabled), and its lines.
 * @param {StagedFile} file @param {number} position @param {DetailActions} actions */
function hunkBox(file, position, actions) {
  const hunk = file.hunks[position];
  const name = `hunk ${position + 1} of ${file.hunks.length}`;
  const box = el("div", "review-hunk", null, {
    testid: "review-hunk",
    role: "group",
    tabindex: "-1",
    "aria-label": `${name[0].toUpperCase()}${name.slice(1)}, ${hunk.state}: ${hunk.header}`,
  });
  box.dataset.state = hunk.state;
  box.dataset.position = String(position);
  box.dataset.focus = `hunk:${position}`;
  box.addEventListener("click", () => actions.select(position));
  const keep = button("Keep", "review-hunk-keep", () => actions.hunk(position, "keep"));
  const drop = button("Drop", "review-hunk-drop", () => actions.hunk(position, "drop"));
  keep.setAttribute("aria-label", `Keep ${name} of ${file.path}`);
  drop.setAttribute("aria-label", `Drop ${name} of ${file.path}`);
  keep.dataset.focus = `keep:${position}`;
  drop.dataset.focus = `drop:${position}`;
  keep.disabled = drop.disabled = hunk.state !== "pending" || hunk.index === null;
  const bar = el("div", "review-hunk-bar");
  bar.append(el("span", "review-hunk-state", hunk.state), keep, drop);
  const lines = el("div", "diff");
  renderDiff(lines, [hunk.header, ...hunk.lines].join("\n"), null);
  box.append(bar, lines);
  return box;
}

/** A side of a conflict, labelled; null is a file that is not there.
 * @param {string} label @param {string | null} text */
function side(label, text) {
  const figure = el("figure", "review-side");
  const pre = el("pre", "review-side-text", text ?? "(no file)", { tabindex: "0", "aria-label": label });
  figure.append(el("figcaption", "", label), pre);
  return figure;
}

/** The three sides of a conflict (and the merge, when lines did not clash) with the answers.
 * @param {StagedFile} file @param {Conflict} conflict @param {DetailActions} actions */
function conflictBox(file, conflict, actions) {
  const box = el("section", "review-conflict", null, {
    testid: "review-conflict",
    "aria-label": `Conflict in ${file.path}`,
  });
  const why = `${file.path} changed in the workspace too since the agent proposed its change. Nothing is overwritten until you choose.`;
  const sides = el("div", "review-sides");
  sides.append(
    side("Base: the file the proposal started from", conflict.base),
    side("Theirs: the workspace now", conflict.theirs),
    side("Ours: the proposal", conflict.ours),
  );
  if (conflict.merged !== null) sides.append(side("Merged: both changes", conflict.merged));
  const answers = el("div", "review-answers");
  const merged = button("Take merged", "review-take-merged", () => actions.resolve("merged"));
  merged.disabled = conflict.merged === null;
  answers.append(
    button("Take ours (the proposal)", "review-take-ours", () => actions.resolve("ours")),
    button("Take theirs (the workspace)", "review-take-theirs", () => actions.resolve("theirs")),
    merged,
  );
  box.append(el("p", "review-why", why), sides, answers);
  return box;
}

/** The open file's detail: head, then a conflict, a binary file's note, or its hunks.
 * @param {StagedFile} file @param {DetailActions} actions @returns {HTMLElement[]} */
export function detailOf(file, actions) {
  /** @type {HTMLElement[]} */
  const parts = [head(file, actions)];
  if (file.conflict) parts.push(conflictBox(file, file.conflict, actions));
  else if (file.binary) parts.push(el("p", "review-note", "A binary file: keep or drop it whole."));
  else if (!file.hunks.length) parts.push(el("p", "review-note", "No change in the text (only its place or kind)."));
  else parts.push(...file.hunks.map((_, position) => hunkBox(file, position, actions)));
  return parts;
}
