// A unified diff as the user reads it: hunk headers, removed and added lines with their line numbers,
// and a "Revert" button per hunk when reverting is possible. File text only ever goes into
// textContent, so whatever the file holds is shown, never run.
import { el } from "./dom.js";

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
/** @type {Record<string, string>} */
const LINE_CLASS = { "+": "add", "-": "del", " ": "ctx", "\\": "note" };

const cell = (/** @type {string} */ className, /** @type {string | number} */ text) => el("span", className, text);

/**
 * @param {string} kind
 * @param {number | null} oldNo
 * @param {number | null} newNo
 * @param {string} text
 */
function lineRow(kind, oldNo, newNo, text) {
  const row = document.createElement("div");
  row.className = `diff-line ${kind}`;
  row.append(cell("diff-no", oldNo ?? ""), cell("diff-no", newNo ?? ""), cell("diff-text", text));
  return row;
}

/**
 * @param {number} index
 * @param {string} header
 * @param {((hunk: number) => void) | null | undefined} onRevert
 */
function hunkHead(index, header, onRevert) {
  const head = document.createElement("div");
  head.className = "diff-hunk-head";
  head.dataset.hunk = String(index);
  head.append(cell("diff-header", header));
  if (onRevert) {
    const revert = document.createElement("button");
    Object.assign(revert, { type: "button", className: "revert-hunk", textContent: "Revert hunk" });
    revert.dataset.hunk = String(index);
    revert.setAttribute("aria-label", `Revert hunk ${index + 1} (${header})`);
    revert.addEventListener("click", () => onRevert(index));
    head.append(revert);
  }
  return head;
}

/** Render `text` (a unified diff) into `container`; `onRevert(hunkIndex)` or null when hunks cannot be
 * reverted from here. Returns the number of hunks.
 * @param {Element} container
 * @param {string} text
 * @param {((hunk: number) => void) | null} [onRevert] */
export function renderDiff(container, text, onRevert) {
  /** @type {HTMLElement[]} */
  const rows = [];
  let hunk = -1;
  let oldNo = 0;
  let newNo = 0;
  for (const line of text.split("\n")) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      hunk += 1;
      oldNo = Number(header[1]);
      newNo = Number(header[2]);
      rows.push(hunkHead(hunk, line, onRevert));
    } else if (hunk < 0) {
      if (line) rows.push(lineRow("meta", null, null, line));
    } else if (line) {
      const kind = LINE_CLASS[line[0]] || "ctx";
      const oldShown = kind === "del" || kind === "ctx" ? oldNo++ : null;
      const newShown = kind === "add" || kind === "ctx" ? newNo++ : null;
      rows.push(lineRow(kind, oldShown, newShown, line));
    }
  }
  if (!text) rows.push(lineRow("meta", null, null, "No differences."));
  container.replaceChildren(...rows);
  return hunk + 1;
}
