// The preview's page as an accessibility tree, one element a line (docs/preview.md, "Hands on the page"):
//   - role "name" [state]... [ref=e12]: value
// indented two spaces a level, the form browser-automation tools give models. An element with a role gets
// a line and a ref; one without (a div, a span) stands aside for its content, or, when nothing in it has a
// role, is one `generic` line with its text; text beside elements is a `- text: …` line. A ref names the
// same element for as long as it lives in the page (Refs); hidden content is left out (aria-roles.js).
import { isHidden, nameOf, roleOf, squash, statesOf, shownValue } from "./aria-roles.js";

const NAME_CHARS = 100;
const TEXT_CHARS = 300;
export const MAX_LINES = 5000; // a page bigger than this is cut here; the tool cuts further to its budget

/**
 * One entry of the tree: an element with a role (or a generic one holding only text), or a text.
 * @typedef {{role: string, name?: string, states?: string[], value?: string, ref?: string,
 *   children: Entry[], text?: string}} Entry
 */

// Short names for the page's elements: e1, e2, … in the order first seen, the same for an element while
// it lives (a removed element's ref stays unknown even if the page puts it back).
export class Refs {
  constructor() {
    /** @type {WeakMap<Element, string>} */
    this.ids = new WeakMap();
    /** @type {Map<string, WeakRef<Element>>} */
    this.elements = new Map();
    this.next = 1;
  }
  /** @param {Element} element */
  of(element) {
    let ref = this.ids.get(element);
    if (!ref) {
      ref = `e${this.next++}`;
      this.ids.set(element, ref);
      this.elements.set(ref, new WeakRef(element));
    }
    return ref;
  }
  /**
   * The live element of `ref`, or why there is none.
   * @param {string} ref
   * @returns {{element: Element} | {error: string}}
   */
  find(ref) {
    const element = this.elements.get(String(ref).replace(/^\[?ref=|\]$/g, ""))?.deref();
    if (!element)
      return { error: `unknown ref ${JSON.stringify(ref)}: take a new preview_snapshot and use a ref from it` };
    if (!element.isConnected) {
      return { error: `ref ${ref} is gone: the page removed that element; take a new preview_snapshot` };
    }
    return { element };
  }
}

/**
 * The snapshot's lines of `root` (the document's body), at most MAX_LINES.
 * @param {Element} root
 * @param {Refs} refs
 * @returns {string[]}
 */
export function snapshotLines(root, refs) {
  /** @type {string[]} */
  const lines = [];
  for (const entry of entriesOf(root, refs)) render(entry, 0, lines);
  return lines;
}

/**
 * The entries the element's children make.
 * @param {Element} element
 * @param {Refs} refs
 * @returns {Entry[]}
 */
function entriesOf(element, refs) {
  /** @type {Entry[]} */
  const entries = [];
  for (const node of element.childNodes) {
    if (node.nodeType === 3) {
      const text = squash(node.nodeValue);
      if (text) entries.push({ role: "text", text, children: [] });
    } else if (node.nodeType === 1 && !isHidden(/** @type {Element} */ (node))) {
      entries.push(...entryOf(/** @type {Element} */ (node), refs));
    }
  }
  return entries;
}

/**
 * The element's entry, or its content's where it has no role of its own.
 * @param {Element} element
 * @param {Refs} refs
 * @returns {Entry[]}
 */
function entryOf(element, refs) {
  if (element.tagName.toUpperCase() === "IFRAME") return [];
  const role = roleOf(element);
  const ref = role ? refs.of(element) : ""; // before its content's: refs go in the document's order
  const children = entriesOf(element, refs);
  if (!role) {
    if (!children.length || children.some((child) => child.role !== "text" && child.role !== "generic"))
      return children;
    const text = squash(children.map((child) => child.text || "").join(" "));
    return [{ role: "generic", ref: refs.of(element), text, children: [] }];
  }
  const name = nameOf(element, role);
  const value = shownValue(element, role);
  /** @type {Entry} */
  const entry = { role, name, states: statesOf(element, role), value, ref, children };
  const plain = children.every((child) => child.role === "text" || child.role === "generic");
  const said = squash(children.map((child) => child.text || "").join(" "));
  if (plain && (said === name || role === "option" || !said)) entry.children = [];
  else if (plain && !value) {
    entry.children = [];
    entry.text = said; // a listitem, a paragraph: its text on its own line
  }
  return [entry];
}

/**
 * @param {Entry} entry
 * @param {number} depth
 * @param {string[]} lines
 */
function render(entry, depth, lines) {
  if (lines.length >= MAX_LINES) return;
  const indent = "  ".repeat(depth);
  if (entry.role === "text") {
    lines.push(`${indent}- text: ${cut(entry.text || "", TEXT_CHARS)}`);
    return;
  }
  const parts = [entry.role];
  if (entry.name) parts.push(JSON.stringify(cut(entry.name, NAME_CHARS)));
  for (const state of entry.states || []) parts.push(`[${state}]`);
  parts.push(`[ref=${entry.ref}]`);
  const head = `${indent}- ${parts.join(" ")}`;
  const tail = entry.value || entry.text;
  if (tail) lines.push(`${head}: ${cut(tail, TEXT_CHARS)}`);
  else lines.push(entry.children.length ? `${head}:` : head);
  for (const child of entry.children) render(child, depth + 1, lines);
}

/**
 * @param {string} text
 * @param {number} limit
 */
const cut = (text, limit) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);
