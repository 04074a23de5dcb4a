// The composer's helpers around the message field: `@path` autocomplete over the workspace's files and
// the tool picker that forces the next turn's tool. The chat view owns sending; it asks `takeTurnOptions`
// for what goes with the message (the forced tool, the files picked with `@`).

import { closeList, markOption } from "./listbox.js";

const MENTION_AT_CARET = /(?:^|\s)@([^\s@]*)$/;
const SHOWN = 8; // options in the list

/** A workspace entry as `vfs.list` lists it (the fields read here). @typedef {{kind: string, path: string}} Entry */

/** @param {HTMLFormElement} form @param {{listFiles: () => Promise<unknown>}} actions */
export function createComposer(form, { listFiles }) {
  const input = /** @type {HTMLTextAreaElement} */ (form.querySelector("[data-testid=chat-input]"));
  const list = /** @type {HTMLElement} */ (form.querySelector("[data-testid=mention-list]"));
  const picker = /** @type {HTMLSelectElement} */ (form.querySelector("[data-testid=tool-picker]"));
  /** @type {Set<string>} */
  const picked = new Set();
  /** @type {string[]} */
  let options = [];
  let selected = 0;
  /** @type {string[] | null} */
  let files = null; // loaded on the first `@` of each mention, so new files show up

  function mentionQuery() {
    const match = MENTION_AT_CARET.exec(input.value.slice(0, input.selectionStart));
    return match ? match[1] : null;
  }

  async function update() {
    const query = mentionQuery();
    if (query === null) return close();
    files ??= await loadFiles();
    if (mentionQuery() !== query) return; // typed on while the list was loading
    const needle = query.replace(/^\//, "").toLowerCase();
    const found = files.filter((path) => path.toLowerCase().includes(needle)).slice(0, SHOWN);
    found.length ? show(found) : close();
  }

  async function loadFiles() {
    const entries = /** @type {Entry[]} */ (await listFiles().catch(() => []));
    return entries.filter((entry) => entry.kind === "file").map((entry) => entry.path);
  }

  /** @param {string[]} paths */
  function show(paths) {
    options = paths;
    selected = Math.min(selected, paths.length - 1);
    list.replaceChildren(...paths.map(optionFor));
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark();
  }

  /** @param {string} path @param {number} index */
  function optionFor(path, index) {
    const option = Object.assign(document.createElement("li"), { textContent: path, id: `mention-option-${index}` });
    option.className = "mention-option";
    option.dataset.testid = "mention-option";
    option.dataset.path = path;
    option.setAttribute("role", "option");
    option.addEventListener("mousedown", (event) => event.preventDefault()); // keeps the focus in the field
    option.addEventListener("click", () => pick(path));
    return option;
  }

  const mark = () => markOption(list, input, "mention-option", selected);

  function close() {
    options = [];
    selected = 0;
    closeList(list, input);
  }

  /** @param {string} path */
  function pick(path) {
    const caret = /** @type {number} */ (input.selectionStart);
    const before = input.value.slice(0, caret).replace(/@[^\s@]*$/, `@${path} `);
    input.value = before + input.value.slice(caret).replace(/^\S*\s?/, "");
    input.setSelectionRange(before.length, before.length);
    picked.add(path);
    close();
    input.focus();
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (list.hidden || !options.length) return;
    /** @type {Record<string, number | undefined>} */
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (moves[event.key]) {
      selected = (selected + /** @type {number} */ (moves[event.key]) + options.length) % options.length;
      mark();
    } else if (event.key === "Enter" || event.key === "Tab") pick(options[selected]);
    else if (event.key === "Escape") close();
    else return;
    // Caught on the way down, before the chat view's own keys (Enter sends, Escape stops).
    event.preventDefault();
    event.stopPropagation();
  }

  /** The forced tool goes only with an Agent-mode turn (Chat mode has no tools); the choice waits for
   * the next Agent turn. */
  /** @param {string} text */
  function takeTurnOptions(text) {
    const references = [...picked].filter((path) => text.includes(`@${path}`));
    const tool = picker.disabled ? undefined : picker.value || undefined;
    picked.clear();
    if (tool) picker.value = "";
    return { ...(tool && { tool }), ...(references.length && { references }) };
  }

  /** @param {boolean} allowed */
  function allowTools(allowed) {
    picker.disabled = !allowed;
  }

  form.addEventListener("keydown", (event) => event.target === input && onKey(event), true);
  input.addEventListener("input", () => {
    if (mentionQuery() === null) files = null;
    update();
  });
  input.addEventListener("blur", () => close());
  close();
  return { takeTurnOptions, allowTools };
}
