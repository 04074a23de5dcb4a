// The proposals the review dropped for the open file (docs/review.md, "Dropped proposals"), listed under
// its versions in the history panel: which chat and turn proposed what, and when. Choosing one shows
// its diff — what was dropped — where a version's diff shows; nothing here changes the file.
import { el, when } from "./dom.js";

/** One record of the worker's `stage.dropped` answer.
 * @typedef {{ path: string, chat: string, turn: string | null, time: number, change: string,
 *   proposed_path: string, diff: string, hunks: number }} DroppedRecord */

/** What the record dropped, in words. @param {DroppedRecord} record */
export function droppedWhat(record) {
  if (record.hunks) return record.hunks === 1 ? "1 hunk" : `${record.hunks} hunks`;
  if (record.change === "moved") return `move to ${record.proposed_path}`;
  return { created: "new file", deleted: "deletion", edited: "whole edit" }[record.change] || record.change;
}

/**
 * @param {HTMLElement} section the list's section (hidden while the file has none)
 * @param {{ onChoose: (record: DroppedRecord) => void }} options
 */
export function createDroppedList(section, { onChoose }) {
  const list = /** @type {HTMLElement} */ (section.querySelector(".dropped-list"));
  /** @type {DroppedRecord[]} */
  let records = [];
  let chosen = -1;

  /** @param {DroppedRecord} record @param {number} index */
  function item(record, index) {
    const what = droppedWhat(record);
    const li = el("li", "version-item dropped-item", null, { testid: "dropped-item", role: "option" });
    Object.assign(li.dataset, { chat: record.chat, turn: record.turn || "", change: record.change });
    li.append(el("span", "op dropped", "dropped"), el("span", "what", what));
    li.append(el("span", "turn", record.turn || ""), el("span", "time", when(record.time)));
    li.title = `dropped from the review: ${what}, proposed in turn ${record.turn || "?"}`;
    li.addEventListener("click", () => choose(index));
    li.addEventListener("keydown", (event) => {
      const step = /** @type {Record<string, number>} */ ({ ArrowUp: 1, ArrowDown: -1 })[event.key];
      if (event.key === "Enter" || event.key === " ") choose(index);
      if (!step) return;
      event.preventDefault();
      /** @type {HTMLElement | null} */ (list.querySelector(`[data-index="${index + step}"]`))?.focus();
    });
    li.dataset.index = String(index);
    return li;
  }

  function mark() {
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
      const on = li.dataset.index === String(chosen);
      li.setAttribute("aria-selected", String(on));
      li.tabIndex = on || (chosen < 0 && li === list.firstElementChild) ? 0 : -1;
    }
  }

  /** @param {number} index */
  function choose(index) {
    chosen = index;
    mark();
    onChoose(records[index]);
  }

  return {
    /** The file's dropped proposals (oldest first, as the worker lists them); shown newest first.
     * @param {DroppedRecord[]} next @param {boolean} sameFile keep the choice when it still exists */
    show(next, sameFile) {
      if (!sameFile || chosen >= next.length) chosen = -1;
      records = next;
      list.replaceChildren(...records.map(item).reverse());
      section.hidden = records.length === 0;
      mark();
    },
    /** A version was chosen instead: no dropped proposal is. */
    clear() {
      chosen = -1;
      mark();
    },
    chosen: () => (chosen >= 0 ? records[chosen] : null),
  };
}
