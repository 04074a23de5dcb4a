// A document for browser_js_eval. The JS runtime runs in a Worker (off the page's thread in every
// engine), which has no DOM of its own; model code that builds or queries markup gets linkedom's
// document instead: parsing, innerHTML, selectors, events, serialising. There is no layout or
// rendering (sizes are 0) and nothing it names is ever fetched.
import { parseHTML } from "linkedom";

const PAGE = "<!doctype html><html><head><title></title></head><body></body></html>";

// Give the worker's global scope a `document`, `window` (the global itself, as in a page) and the DOM
// classes (HTMLElement, Node, DOMParser, ...) that it lacks; what the worker already has stays.
export function installDocument(scope = globalThis) {
  const dom = parseHTML(PAGE);
  define(scope, "document", dom.document);
  define(scope, "window", scope);
  for (const name of [...Object.getOwnPropertyNames(dom), "Image"]) {
    if (/^[A-Z]/.test(name) && !(name in scope)) define(scope, name, dom[name]);
  }
}

/**
 * @param {object} scope
 * @param {string} name
 * @param {unknown} value
 */
function define(scope, name, value) {
  Object.defineProperty(scope, name, { value, writable: true, configurable: true });
}
