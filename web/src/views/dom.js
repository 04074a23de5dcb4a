// The small DOM helpers the views share: an element with its class, text and attributes, and a button
// with a test id (docs/contract.md lists the test ids). Text always goes in as textContent, never as
// markup, so whatever a file or a model says is shown, never run.

/** A `tag` element with `className` and `text` when given; `attributes` are set as attributes, except
 * `testid`, which becomes `data-testid`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string | number | null} [text]
 * @param {Record<string, string>} [attributes]
 * @returns {HTMLElementTagNameMap[K]} */
export function el(tag, className = "", text = null, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "testid") node.dataset.testid = value;
    else node.setAttribute(name, value);
  }
  return node;
}

/** A type="button" button (never a form submit) labelled `label`, with `data-testid` when given.
 * @param {string} label
 * @param {string | null | undefined} testid
 * @param {(event: MouseEvent) => void} onClick */
export function button(label, testid, onClick) {
  const node = el("button", "", label, testid ? { testid } : {});
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

export const LIVE_TEXT_LIMIT = 64 * 1024; // characters a live preview shows: the tail, where the writing is

/** What a live preview shows of `text`: all of it, or its last `limit` characters after a note. Laying
 * out a whole 300 KB file on every streamed chunk would freeze the page; the file itself is in the editor.
 * @param {string} text
 * @param {number} [limit] */
export function liveText(text, limit = LIVE_TEXT_LIMIT) {
  if (text.length <= limit) return text;
  const tail = text.slice(-limit);
  const cut = tail.indexOf("\n") + 1; // start on a whole line
  return `… ${(text.length - tail.length + cut).toLocaleString("en")} earlier characters not shown\n${tail.slice(cut)}`;
}

/** Writes streamed text into `node` at most once per animation frame, scrolled to its end: chunks can
 * come every few ms, and each write lays the element out again. `flush()` writes what is pending now.
 * @param {HTMLElement} node */
export function frameWriter(node) {
  /** @type {string | null} */
  let pending = null;
  let frame = 0;
  const flush = () => {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    if (pending === null) return;
    node.textContent = liveText(pending);
    pending = null;
    node.scrollTop = node.scrollHeight;
  };
  return {
    /** @param {string} text */
    write(text) {
      pending = text;
      if (!frame) frame = requestAnimationFrame(flush);
    },
    flush,
  };
}

/** A time in seconds since the epoch, as the user's locale writes a date and a time. @param {number} seconds */
export function when(seconds) {
  const date = new Date(seconds * 1000);
  return `${date.toLocaleDateString()} ${date.toLocaleTimeString()}`;
}
