// URLs the page sets at run time (`img.src = "pics/a.png"`, `new Image()`, `new Audio(url)`, a new
// <script>, <link> or media element, HTML it inserts, `new Worker(url)`): a workspace file becomes its
// blob: URL, a missing one an error.
import { keyOf, targetOf } from "../../frames/common/workspace-url.js";
import { postLine } from "./notices.js";

/** @import { Made } from "./page-writer.js" */

/** The address a missing file's element gets: its error is said already ("Not found: /path"). */
export const MISSING = "data:,agentlite-missing";
/** The addresses, as the browser first resolved them, of elements pointed at their files. */
export const FIXED = new Set();
/** @type {Record<string, string>} tag -> its URL attribute */
const URL_TAGS = { IMG: "src", SCRIPT: "src", LINK: "href", AUDIO: "src", VIDEO: "src", SOURCE: "src", TRACK: "src" };

/** @typedef {(value: unknown, tag: string) => unknown} Link */

/**
 * @param {string} entry the page's workspace path
 * @param {Made} made
 * @param {MessagePort} port
 */
export function installElementUrls(entry, made, port) {
  /** @type {Link} */
  const link = (value, tag) => {
    const target = targetOf(String(value), entry, location.href);
    if (!target.path) return value;
    if (!made.files[target.path]) {
      postLine(port, "error", `Not found: ${target.path} (<${tag.toLowerCase()}>)`);
      return MISSING;
    }
    return made.urls[keyOf(target.path)]; // a module's is its rewritten code, a stylesheet's has its url()s resolved
  };
  patchSetters(link);
  const setAttribute = patchSetAttribute(link);
  observeInserted(link, setAttribute);
  patchConstructors(link);
}

/**
 * The URL properties' setters (`img.src = …`) link their value.
 * @param {Link} link
 */
function patchSetters(link) {
  /** @type {object[]} */
  const patched = [];
  for (const [tag, prop] of Object.entries(URL_TAGS)) {
    const proto = Object.getPrototypeOf(document.createElement(tag));
    const own = Object.getOwnPropertyDescriptor(proto, prop) ? proto : Object.getPrototypeOf(proto);
    const d = Object.getOwnPropertyDescriptor(own, prop);
    if (!d?.set || patched.includes(own)) continue;
    patched.push(own);
    const set = d.set;
    Object.defineProperty(own, prop, {
      configurable: true,
      enumerable: d.enumerable,
      get: d.get,
      /** @this {Element} @param {unknown} value */
      set(value) {
        set.call(this, link(value, this.tagName));
      },
    });
  }
}

/**
 * `setAttribute("src", …)` links its value; returns the browser's own setAttribute.
 * @param {Link} link
 */
function patchSetAttribute(link) {
  const setAttribute = Element.prototype.setAttribute;
  /** @this {Element} @param {string} name @param {string} value */
  Element.prototype.setAttribute = function (name, value) {
    const tag = this.tagName;
    const linked = URL_TAGS[tag] === String(name).toLowerCase() ? link(value, tag) : value;
    return setAttribute.call(this, name, /** @type {string} */ (linked));
  };
  return setAttribute;
}

/**
 * Elements made from HTML (`innerHTML`, `insertAdjacentHTML`) get their attributes without a setter.
 * @param {Link} link
 * @param {Element["setAttribute"]} setAttribute the browser's own
 */
function observeInserted(link, setAttribute) {
  /** @param {Element} element */
  const fix = (element) => {
    const name = URL_TAGS[element.tagName];
    const value = name && element.getAttribute(name);
    if (!value) return;
    const linked = link(value, element.tagName);
    if (linked === value) return;
    try {
      FIXED.add(new URL(value, location.href).href);
    } catch {
      /* not a URL: nothing was asked */
    }
    setAttribute.call(element, name, /** @type {string} */ (linked));
  };
  const selector = Object.keys(URL_TAGS).join(",");
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") fix(/** @type {Element} */ (record.target));
      else {
        for (const node of Array.from(record.addedNodes)) {
          if (node.nodeType !== 1) continue;
          fix(/** @type {Element} */ (node));
          /** @type {Element} */ (node).querySelectorAll(selector).forEach(fix);
        }
      }
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["src", "href"] });
}

/**
 * `new Audio(url)` sets its src inside, past the setter; `new Worker(url)` takes a URL.
 * @param {Link} link
 */
function patchConstructors(link) {
  const RealAudio = window.Audio;
  if (RealAudio) {
    /** @param {string} [src] */
    const Audio = function Audio(src) {
      const audio = new RealAudio();
      if (src !== undefined) audio.src = src;
      return audio;
    };
    Audio.prototype = RealAudio.prototype;
    window.Audio = /** @type {typeof window.Audio} */ (/** @type {unknown} */ (Audio));
  }
  const RealWorker = window.Worker;
  if (RealWorker) {
    window.Worker = class Worker extends RealWorker {
      /** @param {string | URL} url @param {WorkerOptions} [options] */
      constructor(url, options) {
        super(/** @type {string} */ (link(url instanceof URL ? url.href : url, "WORKER")), options);
      }
    };
  }
}
