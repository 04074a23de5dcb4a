// The history of the open file: every version with its op, turn, author and time; the diff of the chosen
// version against its parent or against any other version; undo of the newest change; revert of one
// hunk of a change. Every action is a new recorded change, so each of them can be undone too. Below the
// versions, the proposals the review dropped for the file (dropped-list.js), each with its diff.
import { el, when } from "./dom.js";
import { renderDiff } from "./diff-view.js";
import { createDroppedList } from "./dropped-list.js";

/** @import { Call } from "../folders/folder-import.js" */
/** @import { DroppedRecord } from "./dropped-list.js" */
/** One version of a file in the worker's `history` answer.
 * @typedef {{ version: number, op: string, author: string, turn: string | number, time: number, note?: string,
 *   kind?: string }} VersionRecord */

const part = (/** @type {string} */ className, /** @type {string | number} */ text) => el("span", className, text);

/**
 * `dropped(path)`: the proposals dropped for the file (`stage.dropped`), oldest first.
 * @param {HTMLElement} panel
 * @param {{ call: Call, dropped?: (path: string) => Promise<DroppedRecord[]> }} options
 */
export function createHistoryView(panel, { call, dropped = async () => [] }) {
  const list = /** @type {HTMLElement} */ (panel.querySelector(".version-list"));
  const base = /** @type {HTMLSelectElement} */ (panel.querySelector(".diff-base"));
  const diff = /** @type {HTMLElement} */ (panel.querySelector(".diff"));
  const message = /** @type {HTMLElement} */ (panel.querySelector(".history-message"));
  const undo = /** @type {HTMLButtonElement} */ (panel.querySelector("[data-testid=undo-change]"));
  /** @type {string | null} */
  let path = null;
  /** @type {VersionRecord[]} */
  let versions = [];
  /** @type {number | null} */
  let selected = null;
  /** @type {number | null} */
  let baseVersion = null;
  let token = 0;
  const droppedList = createDroppedList(
    /** @type {HTMLElement} */ (panel.querySelector("[data-testid=dropped-proposals]")),
    { onChoose: (record) => showDropped(record) },
  );

  /** A dropped proposal's diff where a version's shows; no version is chosen meanwhile.
   * @param {DroppedRecord} record */
  function showDropped(record) {
    ++token;
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children))
      li.setAttribute("aria-selected", "false");
    if (record.diff) renderDiff(diff, record.diff, null);
    else diff.replaceChildren(el("p", "diff-line note", "A binary file: there is no text to show."));
  }

  /**
   * @param {string} text
   * @param {boolean} [failed]
   */
  function say(text, failed = false) {
    message.textContent = text;
    message.classList.toggle("failed", failed);
  }

  /**
   * @param {string} label
   * @param {() => Promise<unknown>} work
   */
  async function act(label, work) {
    say(`${label}…`);
    try {
      await work();
      say(`${label}: done.`);
    } catch (err) {
      say(`${label} failed: ${/** @type {Error} */ (err).message}`, true);
    }
  }

  /** @param {VersionRecord} record */
  function item(record) {
    const li = document.createElement("li");
    li.className = "version-item";
    li.dataset.testid = "version-item";
    li.dataset.version = String(record.version);
    li.role = "option";
    li.tabIndex = record.version === selected ? 0 : -1;
    li.setAttribute("aria-selected", String(record.version === selected));
    const who = record.author === "user" ? "you" : record.author;
    li.append(part("v", `v${record.version}`), part(`op ${record.op}`, record.op), part("who", who));
    li.append(part("turn", record.turn), part("time", when(record.time)));
    if (record.note) li.append(part("note", record.note));
    li.title = `version ${record.version}: ${record.op} by ${who} in turn ${record.turn}`;
    li.addEventListener("click", () => choose(record.version));
    li.addEventListener("keydown", (event) => moveFocus(event, record.version));
    return li;
  }

  /**
   * @param {KeyboardEvent} event
   * @param {number} version
   */
  function moveFocus(event, version) {
    const step = /** @type {Record<string, number>} */ ({ ArrowUp: 1, ArrowDown: -1 })[event.key];
    if (event.key === "Enter" || event.key === " ") choose(version);
    if (!step) return;
    event.preventDefault();
    const next = /** @type {HTMLElement | null} */ (list.querySelector(`[data-version="${version + step}"]`));
    next?.focus();
  }

  function baseOptions() {
    const parent = new Option("its previous version", "");
    const others = versions.map((v) => new Option(`v${v.version} (${v.op})`, String(v.version)));
    base.replaceChildren(parent, ...others);
    base.value = baseVersion === null ? "" : String(baseVersion);
  }

  /** @param {number} mine */
  async function showDiff(mine) {
    /** @type {{ path: string | null, new: number | null, old?: number }} */
    const args = { path, new: selected };
    if (baseVersion !== null) args.old = baseVersion;
    const text = await call("diff", args);
    if (mine !== token) return;
    const againstParent = baseVersion === null || baseVersion === /** @type {number} */ (selected) - 1;
    const record = versions.find((v) => v.version === selected);
    const revertable = againstParent && record && record.op !== "delete" && record.kind === "file";
    renderDiff(diff, text, revertable ? revertHunk : null);
  }

  /** @param {number} index */
  function revertHunk(index) {
    return act(`Revert hunk ${index + 1} of v${selected}`, () =>
      call("revertHunk", { path, version: selected, hunk: index }),
    );
  }

  async function refresh() {
    if (!path) return;
    const mine = ++token;
    const wasNewest = selected === null || selected === versions.at(-1)?.version;
    const [found, drops] = await Promise.all([call("history", { path }), dropped(path).catch(() => [])]);
    if (mine !== token) return;
    versions = found;
    if (wasNewest || !versions.some((v) => v.version === selected)) selected = versions.at(-1)?.version ?? null;
    if (baseVersion !== null && !versions.some((v) => v.version === baseVersion)) baseVersion = null;
    list.replaceChildren(...versions.map(item).reverse());
    baseOptions();
    undo.disabled = versions.length === 0;
    droppedList.show(drops, true);
    panel.hidden = false;
    const pick = droppedList.chosen();
    if (pick) return showDropped(pick);
    if (selected === null) return diff.replaceChildren();
    await showDiff(mine);
  }

  /** @param {number} version */
  function choose(version) {
    selected = version;
    droppedList.clear();
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
      const on = li.dataset.version === String(version);
      li.setAttribute("aria-selected", String(on));
      li.tabIndex = on ? 0 : -1;
    }
    return showDiff(++token);
  }

  /** @param {string} nextPath */
  function show(nextPath) {
    if (nextPath !== path) {
      path = nextPath;
      selected = null;
      baseVersion = null;
      versions = [];
      droppedList.show([], false);
      say("");
    }
    return refresh();
  }

  base.addEventListener("change", () => {
    baseVersion = base.value === "" ? null : Number(base.value);
    showDiff(++token);
  });
  undo.addEventListener("click", () => path && act("Undo the newest change", () => call("undo", { path })));

  return { show, refresh, path: () => path };
}
