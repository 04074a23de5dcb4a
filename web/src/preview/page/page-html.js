// The entry HTML of a preview with its references turned into keys (resolve.js), line for line: the
// text is edited in place, never re-serialised, so an error in an inline script keeps its line number.
// The blocks and tags are found by html-scan.js, in time linear in the page (a regular expression took
// minutes on an unclosed <script> after thousands of openers).
import { guardHandlers } from "./handler-attributes.js";
import { lineIndex, replaceMediaTags, scriptBlocks } from "./html-scan.js";
import { keyOf, rewriteCss, rewriteImports, workspacePath } from "../common/resolve.js";

const URL_ATTR = /(\s(?:src|href|poster|data)\s*=\s*)(["']?)([^"'\s>]+)\2/gi;
const SRCSET = /(\ssrcset\s*=\s*)(["'])([^"']*)\2/gi;
const STYLE_ATTR = /(\sstyle\s*=\s*)(["'])([^"']*)\2/gi;

/**
 * The loop guard's module (loop-guard.js, its own bundle).
 * @typedef {typeof import("./loop-guard.js")} Guard
 * @typedef {{key: string, module: boolean}} PageScript
 * @typedef {{html: string, scripts: PageScript[], imports: Set<string>, computed: boolean, unguarded: string[]}} PageHtml
 * What the rewriting of one page carries along.
 * @typedef {{attrs: (text: string) => string, from: string, has: (path: string) => boolean,
 *   missing: (text: string) => void, html: string, guard: Guard | null, lineOf: (offset: number) => number,
 *   counter: import("./html-scan.js").Counter, scripts: PageScript[], imports: Set<string>, computed: boolean,
 *   unguarded: string[]}} Context
 * @typedef {{index: number, name: string, attributes: string, body: string, bodyAt: number, whole: string}} Block
 */

// -> {html, scripts: [{key, module}], imports: Set<key>, computed, unguarded: string[]}: the module entry
// points the page names, and whether an inline module has a computed import() (then every script may be
// imported). `guard` (loop-guard.js's module, or null) guards the loops of the inline scripts and of the
// event-handler attributes; `unguarded` says which it could not parse and why.
// `counter.steps` adds up the characters the scans looked at (the unit tests' measure of their work).
/**
 * @param {string} html
 * @param {string} from
 * @param {(path: string) => boolean} has
 * @param {(text: string) => void} missing
 * @param {Guard | null} [guard]
 * @param {import("./html-scan.js").Counter} [counter]
 * @returns {PageHtml}
 */
export function rewriteHtml(html, from, has, missing, guard = null, counter = { steps: 0 }) {
  /** @type {PageScript[]} */
  const scripts = [];
  /** @type {Set<string>} */
  const imports = new Set();
  const ref = (/** @type {string} */ value) => {
    const path = workspacePath(value, from);
    if (path === null) return null;
    if (!has(path)) missing(`${from}: cannot find "${value}" (${path})`);
    return keyOf(path);
  };
  /** @type {(text: string) => string} */
  const attrs = (text) =>
    text
      .replace(URL_ATTR, (/** @type {string} */ whole, /** @type {string} */ head, quote, value) => {
        const key = ref(value);
        return key ? `${head}${quote}${key}${quote}` : whole;
      })
      .replace(
        SRCSET,
        (_whole, /** @type {string} */ head, quote, value) => `${head}${quote}${srcset(value, ref)}${quote}`,
      )
      .replace(
        STYLE_ATTR,
        (_whole, /** @type {string} */ head, quote, value) =>
          `${head}${quote}${rewriteCss(value, from, has, missing)}${quote}`,
      );
  /** @type {string[]} */
  const unguarded = [];
  const lineOf = lineIndex(html);
  const found = { scripts, imports, computed: false, unguarded };
  /** @type {Context} */
  const context = { attrs, from, has, missing, html, guard, lineOf, counter, ...found };
  const pieces = [];
  let at = 0;
  /** @type {(from: number, to: number) => string} */
  const markup = (from, to) =>
    replaceMediaTags(handlers(html.slice(from, to), from, context), (tag) => attrs(tag), counter);
  for (const match of scriptBlocks(html, counter)) {
    pieces.push(markup(at, match.index));
    pieces.push(block(match, context));
    at = match.index + match.whole.length;
  }
  pieces.push(markup(at, html.length));
  return { html: pieces.join(""), scripts, imports, computed: context.computed, unguarded };
}

/**
 * `text`, found at `offset` in the page, with its handler attributes guarded where loops are guarded.
 * @param {string} text
 * @param {number} offset
 * @param {Context} context
 */
function handlers(text, offset, { from, guard, unguarded, lineOf, counter }) {
  return guard ? guardHandlers(text, { offset, from, guard, unguarded, lineOf, counter }) : text;
}

/**
 * @param {Block} match
 * @param {Context} context
 */
function block(match, context) {
  const { whole, name, attributes: found, body } = match;
  const { attrs, from, has, missing, scripts, imports } = context;
  const attributes = handlers(`<${name}${found}>`, match.index, context).slice(name.length + 1, -1);
  if (name.toLowerCase() === "style") {
    return `<${name}${attrs(attributes)}>${rewriteCss(body, from, has, missing)}</${name}>`;
  }
  const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() || "";
  const module = type === "module";
  if (type && !module && !/javascript|ecmascript/.test(type)) return whole; // JSON, templates, importmap...
  const rewritten = attrs(attributes);
  const src = /\ssrc\s*=\s*["']?(agentlite-ws:[^"'\s>]+)/i.exec(rewritten)?.[1];
  if (src) scripts.push({ key: src, module });
  let code = body;
  if (module && !src && body.trim()) {
    try {
      const computed = () => (context.computed = true);
      code = rewriteImports(body, from, has, { missing, imports, meta: true, computed });
    } catch {
      code = body; // the browser reports the syntax error itself
    }
  }
  if (context.guard && !src && body.trim()) code = guardInline(code, match, module, context);
  return `<${name}${rewritten}>${code}</${name}>`;
}

/**
 * An inline script's code with its loops guarded, its lines counted from its place in the page.
 * @param {string} code
 * @param {Block} match
 * @param {boolean} module
 * @param {Context} context
 */
function guardInline(code, match, module, { from, guard, unguarded, lineOf }) {
  const firstLine = lineOf(match.bodyAt);
  try {
    return /** @type {Guard} */ (guard).guardLoops(code, { path: from, module, firstLine });
  } catch (err) {
    unguarded.push(`${from} (the inline script at line ${firstLine}): ${/** @type {Error} */ (err).message}`);
    return code;
  }
}

/**
 * @param {string} value
 * @param {(url: string) => string | null} ref
 */
function srcset(value, ref) {
  return value
    .split(",")
    .map((part) => {
      const [url, ...rest] = part.trim().split(/\s+/);
      const key = url ? ref(url) : null;
      return [key || url, ...rest].join(" ");
    })
    .join(", ");
}
