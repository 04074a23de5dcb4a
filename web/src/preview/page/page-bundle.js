// Everything the preview frame needs to show one page, built on the app's side: the entry HTML and the
// CSS with their references as keys, the module graph the page imports (transpiled when it is
// TypeScript or JSX, specifiers rewritten), the shipped React/Preact copies it uses, and the files the
// page can reach (page-reach.js) as raw bytes for images, fonts and fetch(). The frame turns keys into
// blob: URLs.
import { isForbidden, literalPaths, reach } from "./page-reach.js";
import { rewriteHtml } from "./page-html.js";
import { VENDOR, WS, isScript, keyOf, rewriteCss, rewriteImports } from "../common/resolve.js";

/**
 * What the frame is handed for one page (web/src/preview/frame/page-writer.js writes it).
 * @typedef {{key: string, path: string, type: string, data: Uint8Array<ArrayBuffer> | string}} BundleFile
 * @typedef {{entry: string, html: string, files: BundleFile[], modules: {key: string, code: string | null}[],
 *   styles: {key: string, css: string}[], warnings: string[], unguarded: string[], guarded: boolean}} Bundle
 * @typedef {Map<string, {text?: string, bytes?: Uint8Array<ArrayBuffer>}>} Files
 * @typedef {import("./page-html.js").Guard} Guard
 */

/** @type {Record<string, string>} */
const TYPES = {
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  json: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  xml: "application/xml",
  wasm: "application/wasm",
};

/** @param {string} path */
export function typeOf(path) {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return TYPES[ext] || "application/octet-stream";
}

// files: Map<path, {text?: string, bytes?: Uint8Array}>; transpile(path, code) -> Promise<code>;
// vendor(name) -> Promise<code>; guard: loop-guard.js's module where loops must be guarded, else null.
// Resolves with the bundle for the frame (see preview.html); `unguarded` says which workspace scripts
// the guard could not parse and why; `guarded` has the frame turn off code made at run time.
/**
 * @param {{entry: string, files: Files, transpile: (path: string, code: string) => Promise<string>,
 *   vendor: (name: string) => Promise<string>, guard?: Guard | null}} options
 * @returns {Promise<Bundle>}
 */
export async function buildBundle({ entry, files, transpile, vendor, guard = null }) {
  /** @type {string[]} */
  const warnings = [];
  const missing = (/** @type {string} */ text) => warnings.push(text);
  /** @type {Set<string>} */
  const named = new Set(); // what the page's HTML, CSS and modules name: the resolver's look-ups that found a file
  const has = (/** @type {string} */ path) => {
    const found = files.has(path) && !isForbidden(path);
    if (found) named.add(path);
    return found;
  };
  const source = files.get(entry);
  if (!source || source.text === undefined) throw new Error(`${entry} is not a text file in the workspace`);
  const page = rewriteHtml(source.text, entry, has, missing, guard);
  const unguarded = [...page.unguarded];
  /** @type {(text: string, from: string) => void} */
  const literal = (text, from) => {
    for (const path of literalPaths(text, from, entry, has)) named.add(path);
  };
  literal(source.text, entry);
  /** @type {Map<string, string | null>} */
  const modules = new Map(); // key -> code
  const pending = [...page.scripts.filter((s) => s.module).map((s) => s.key), ...page.imports];
  const classic = page.scripts.filter((s) => !s.module).map((s) => s.key);
  for (const key of classic) if (!modules.has(key)) modules.set(key, await workspaceModule(key, false));
  let computed = page.computed; // a computed import() may name any script the frame is handed
  const everyScript = () => (computed = true);
  let allPulled = false;
  while (pending.length || (computed && !allPulled)) {
    if (computed && !allPulled) {
      allPulled = true;
      for (const path of reach({ entry, files, named }).paths) if (isScript(path)) pending.push(keyOf(path));
      continue;
    }
    const key = /** @type {string} */ (pending.pop());
    if (modules.has(key)) continue;
    /** @type {Set<string>} */
    const imports = new Set();
    modules.set(key, "");
    modules.set(key, await moduleCode(key, imports));
    for (const next of imports) if (!modules.has(next)) pending.push(next);
  }
  /** @type {{key: string, css: string}[]} */
  const styles = [];
  /** @type {Set<string>} */
  const styled = new Set();
  let handed = reach({ entry, files, named });
  for (let more = true; more; ) {
    more = false;
    for (const path of handed.paths) {
      const file = /** @type {{text?: string}} */ (files.get(path));
      if (!path.endsWith(".css") || file.text === undefined || styled.has(path)) continue;
      styled.add(path);
      more = true;
      literal(file.text, path);
      styles.push({ key: keyOf(path), css: rewriteCss(file.text, path, has, missing) });
    }
    if (more) handed = reach({ entry, files, named }); // a stylesheet names fonts, images, other sheets
  }
  if (handed.skipped.length) {
    missing(
      `not handed to the preview (over ${handed.skipped.length > 1 ? "their" : "its"} size cap): ${handed.skipped.join(", ")}`,
    );
  }
  /** @type {BundleFile[]} */
  const raw = [];
  for (const path of handed.paths) {
    const file = /** @type {{text?: string, bytes?: Uint8Array<ArrayBuffer>}} */ (files.get(path));
    raw.push({ key: keyOf(path), path, type: typeOf(path), data: file.bytes || /** @type {string} */ (file.text) });
  }
  const moduleList = [...modules].map(([key, code]) => ({ key, code }));
  const bundle = { entry, html: page.html, files: raw, modules: moduleList, styles, warnings, unguarded };
  return { ...bundle, guarded: Boolean(guard) };

  /**
   * @param {string} key
   * @param {Set<string>} imports
   */
  async function moduleCode(key, imports) {
    if (key.startsWith(VENDOR)) {
      const name = key.slice(VENDOR.length + 1);
      return rewriteImports(await vendor(name), key, () => false, { imports });
    }
    return workspaceModule(key, true, imports);
  }

  /**
   * @param {string} key
   * @param {boolean} module
   * @param {Set<string>} [imports]
   * @returns {Promise<string | null>}
   */
  async function workspaceModule(key, module, imports) {
    const path = pathOf(key);
    const file = files.get(path);
    if (!file || file.text === undefined || !isScript(path)) return null; // a JSON, CSS or asset import
    literal(file.text, path);
    let code = file.text;
    if (/\.(tsx?|jsx|mts)$/.test(path)) {
      try {
        code = await transpile(path, code);
      } catch (err) {
        const message = /** @type {Error} */ (err).message;
        warnings.push(`${path}: ${message}`);
        return `throw new SyntaxError(${JSON.stringify(`${message} (${path})`)});`;
      }
    }
    if (module) {
      try {
        code = rewriteImports(code, path, has, { missing, imports, meta: true, computed: everyScript });
      } catch {
        // unparsable: the browser reports the syntax error with its line
      }
    }
    return guarded(code, path, module);
  }

  /**
   * @param {string} code
   * @param {string} path
   * @param {boolean} module
   */
  function guarded(code, path, module) {
    if (!guard) return code;
    try {
      return guard.guardLoops(code, { path, module });
    } catch (err) {
      unguarded.push(`${path}: ${/** @type {Error} */ (err).message}`);
      return code;
    }
  }
}

/** @param {string} key */
export function pathOf(key) {
  try {
    return decodeURI(key.slice(WS.length));
  } catch {
    return key.slice(WS.length);
  }
}
