// Frames of the preview run no script (docs/preview.md, "No network"). A frame the page makes would have
// its own window: frame-src 'none' leaves it only about:blank and srcdoc documents, which (the frame being
// sandboxed) get an opaque origin of their own, so the page cannot reach into them; what remains is code
// in a srcdoc document itself. Trusted types send every HTML string the page hands the DOM through the
// default policy below: a srcdoc value gets a policy of `script-src 'none'` in front, an srcdoc attribute
// inside other HTML is renamed, and the page cannot make a policy of its own (its createPolicy gives back
// plain strings, which go through this one again). A javascript: URL in a child frame is refused there.
import { postLine } from "./notices.js";

const NO_SCRIPT = '<meta http-equiv="Content-Security-Policy" content="script-src \'none\'">';
const FRAME_SCRIPTS_OFF =
  "Blocked: a script in an <iframe srcdoc> (a frame of the preview runs no script; it could reach the network)";

/**
 * The part of the Trusted Types API the frame uses.
 * @typedef {Record<string, ((...args: any[]) => unknown) | undefined>} PolicyRules
 * @typedef {{createHTML: (html: string) => unknown}} HtmlPolicy
 * @typedef {{createPolicy: (name: string, rules: PolicyRules) => HtmlPolicy}} PolicyFactory
 */

/** @type {(html: string) => string} */
let own = String;

/**
 * `html` as the frame's own trusted HTML (what document.write and DOMParser take under the frame's CSP).
 * @param {string} html
 * @returns {string}
 */
export function ownHtml(html) {
  return own(html);
}

/**
 * @param {MessagePort} port
 * @param {HtmlPolicy | null} policy the frame's own policy, made by its bootstrap (web/sandbox/preview.html)
 */
export function installTrustedTypes(port, policy) {
  const factory = /** @type {PolicyFactory | undefined} */ (
    /** @type {{trustedTypes?: unknown}} */ (window).trustedTypes
  );
  if (!factory || typeof factory.createPolicy !== "function") return;
  let said = false;
  const say = () => {
    if (said) return;
    said = true;
    postLine(port, "error", FRAME_SCRIPTS_OFF);
  };
  const mine = policy || factory.createPolicy("agentlite-preview", { createHTML: String });
  own = (html) => /** @type {string} */ (mine.createHTML(html));
  factory.createPolicy("default", {
    /** @type {(html: string, type: string, sink: string) => string} */
    createHTML: (html, _type, sink) => (/srcdoc/i.test(String(sink)) ? NO_SCRIPT + html : offSrcdoc(String(html), say)),
    /** @type {(code: string) => string} */
    createScript: (code) => code,
    /** @type {(url: string) => string} */
    createScriptURL: (url) => url,
  });
  const proto = Object.getPrototypeOf(factory);
  Object.defineProperty(proto, "defaultPolicy", { configurable: false, get: () => null });
  Object.defineProperty(proto, "createPolicy", {
    configurable: false,
    writable: false,
    /** @type {(name: unknown, rules: PolicyRules | undefined) => object} */
    value: function createPolicy(name, rules) {
      return pagePolicy(String(name), rules || {});
    },
  });
}

/**
 * What the page's createPolicy gives back: its rules, run, with plain strings as their results (a string
 * handed to the DOM goes through the default policy, so a page's policy cannot get past it).
 * @param {string} name
 * @param {PolicyRules} rules
 */
function pagePolicy(name, rules) {
  /** @param {string} kind */
  const rule =
    (kind) =>
    /** @param {unknown[]} args */
    (...args) => {
      const made = rules[kind];
      if (typeof made !== "function") throw new TypeError(`Policy ${name}'s ${kind} is missing.`);
      const result = made.apply(rules, args);
      return result == null ? result : String(result);
    };
  return {
    name,
    createHTML: rule("createHTML"),
    createScript: rule("createScript"),
    createScriptURL: rule("createScriptURL"),
  };
}

/**
 * HTML with no srcdoc attribute left: any "srcdoc" in it is renamed (the name cannot be written any other
 * way in HTML); text that merely mentions it changes too, which is rare and harmless.
 * @param {string} html
 * @param {() => void} say
 */
function offSrcdoc(html, say) {
  if (!/srcdoc/i.test(html)) return html;
  say();
  return html.replace(/srcdoc/gi, "data-srcdoc-off");
}

/**
 * The page's own HTML: where it has an <iframe srcdoc> (as the browser parses it, templates included),
 * every srcdoc is renamed; else it is written as it is (its scripts may well mention srcdoc).
 * @param {string} html
 * @param {MessagePort} port
 */
export function withoutFrameScripts(html, port) {
  if (!/srcdoc/i.test(html)) return html;
  const doc = new DOMParser().parseFromString(ownHtml(html), "text/html");
  if (!hasSrcdoc(doc)) return html;
  return offSrcdoc(html, () => postLine(port, "error", FRAME_SCRIPTS_OFF));
}

/**
 * @param {ParentNode} root
 * @returns {boolean}
 */
function hasSrcdoc(root) {
  return Array.from(root.querySelectorAll("iframe[srcdoc], template")).some(
    (element) => element.localName === "iframe" || hasSrcdoc(/** @type {HTMLTemplateElement} */ (element).content),
  );
}
