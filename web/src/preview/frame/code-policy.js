// The frame's second CSP, where the frame shares the app's thread (the bundle is `guarded`, docs/preview.md
// "Looping pages"), written after the import map and before the page: scripts must meet both policies,
// so only the inline code in the page's HTML runs (its inline scripts and on…="" attributes, whose loops
// the app guarded, by their hashes) and blob: scripts; no eval, new Function, string timers, javascript:
// URLs, or inline code the page adds at run time, whose loops nothing guards. WebAssembly still compiles.
import { sha256Base64 } from "../../bytes.js";
import { ownHtml } from "./trusted-html.js";

/**
 * The policy's <meta> tag for the page `html`.
 * @param {string} html
 * @returns {Promise<string>}
 */
export async function ownCodePolicy(html) {
  /** @type {Set<string>} */
  const code = new Set();
  collectCode(new DOMParser().parseFromString(ownHtml(html), "text/html"), code);
  const hashes = await Promise.all(Array.from(code, (text) => sha256Base64(new TextEncoder().encode(text))));
  const sources = hashes.map((hash) => ` 'sha256-${hash}'`).join("");
  return `<meta http-equiv="Content-Security-Policy" content="script-src 'wasm-unsafe-eval' blob: 'unsafe-hashes'${sources}">`;
}

/**
 * @param {ParentNode} root
 * @param {Set<string>} code
 */
function collectCode(root, code) {
  for (const element of Array.from(root.querySelectorAll("*"))) {
    if (element.localName === "script" && !element.hasAttribute("src")) code.add(element.textContent || "");
    for (const attribute of Array.from(element.attributes)) {
      if (/^on/i.test(attribute.name)) code.add(attribute.value);
    }
    const content = element.localName === "template" && /** @type {HTMLTemplateElement} */ (element).content;
    if (content) collectCode(content, code);
  }
}

/**
 * What the second policy blocked, in words, or null for a request.
 * @param {SecurityPolicyViolationEvent} event
 */
export function codeBlocked(event) {
  if (event.blockedURI === "eval") return "eval/new Function"; // a way in that eval-notice.js does not watch
  if (event.blockedURI === "inline" || !event.blockedURI) {
    return 'code that is not in the page\'s HTML (an on…="" attribute or <script> added at run time, a javascript: URL)';
  }
  return null;
}
