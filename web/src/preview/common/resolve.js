// How a previewed page's references resolve, on the app's page and in the sandbox frame's Worker (for
// browser_js_eval's workspace imports): pure, no DOM (docs/preview.md). URL -> workspace path is
// frames/common/workspace-url.js.
//
// Every reference to a workspace file becomes a key `agentlite-ws:/path` (a URL of a scheme of our own,
// so the browser normalises it the same way in an import map and in an import). The frame that runs the
// page maps each key to a blob: URL it made itself: module specifiers through an import map, URLs in
// HTML and CSS by replacing the keys in the text. Bare `react`, `preact` and friends become keys of the
// copies shipped with the app (`agentlite-vendor:/…`).
import { parse } from "es-module-lexer/js"; // the asm.js build: no WebAssembly, ready at once
import { keyOf, WS, workspacePath } from "../../frames/common/workspace-url.js";

export { keyOf, WS, workspacePath };

export const VENDOR = "agentlite-vendor:";
// Bare specifier -> the vendor file that serves it (dist/preview/vendor/, built by buildsys/build/preview_vendor.py).
/** @type {Record<string, string>} */
export const VENDOR_ENTRIES = {
  react: "react.js",
  "react/jsx-runtime": "react-jsx-runtime.js",
  "react-dom": "react-dom.js",
  "react-dom/client": "react-dom-client.js",
  preact: "preact.js",
  "preact/hooks": "preact-hooks.js",
  "preact/jsx-runtime": "preact-jsx-runtime.js",
};
export const SCRIPT_EXTENSIONS = [".js", ".mjs", ".jsx", ".ts", ".tsx", ".mts"];
const TRIED_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"];
export const KEY_PATTERN = /agentlite-(?:ws|vendor):\/[^\s"'`<>()\\]*/g;

export const lexerReady = Promise.resolve();

/** @param {string} path */
export function isScript(path) {
  return SCRIPT_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** @param {string} path */
export function folderOf(path) {
  return path.slice(0, path.lastIndexOf("/") + 1) || "/";
}

// The existing file a module import names: the exact path, else with a script extension added, else
// the folder's index file (as bundlers do; a bare browser would need the exact name).
/**
 * @param {string} path
 * @param {(path: string) => boolean} has
 */
export function findModule(path, has) {
  if (has(path)) return path;
  for (const ext of TRIED_EXTENSIONS) if (has(path + ext)) return path + ext;
  for (const ext of TRIED_EXTENSIONS) if (has(`${path.replace(/\/$/, "")}/index${ext}`)) return `${path}/index${ext}`;
  return null;
}

// The key a module specifier of the file `from` resolves to, or null to leave it as written.
// `has(path)` says whether a workspace file exists; `missing(text)` hears of what does not.
/**
 * @param {string} specifier
 * @param {string} from
 * @param {(path: string) => boolean} has
 * @param {(text: string) => void} [missing]
 */
export function resolveSpecifier(specifier, from, has, missing = () => {}) {
  if (Object.hasOwn(VENDOR_ENTRIES, specifier)) return `${VENDOR}/${VENDOR_ENTRIES[specifier]}`;
  if (from.startsWith(VENDOR) && specifier.startsWith("./")) return `${VENDOR}/${specifier.slice(2)}`;
  if (!/^(\/|\.\/|\.\.\/)/.test(specifier)) return null; // bare or another scheme: the browser decides
  const path = workspacePath(specifier, from);
  if (path === null) return null;
  const found = findModule(path, has);
  if (found === null) {
    missing(`${from}: cannot find module "${specifier}" (${path})`);
    return keyOf(path);
  }
  return keyOf(found);
}

// The module's code with every static and literal dynamic import specifier replaced by its key.
// `imports` collects the keys, so the caller can hand over the files the page needs; `link(key)`, when
// given, says what to write instead of the key (browser_js_eval writes blob: URLs).
// With `meta` (the preview), `import.meta` and computed `import()` also resolve against the module's own
// workspace path (see `metaObject` below) and `computed()` hears of every computed import.
/**
 * @param {string} code
 * @param {string} from
 * @param {(path: string) => boolean} has
 * @param {{missing?: (text: string) => void, imports?: Set<string>, link?: (key: string) => string,
 *   meta?: boolean, computed?: () => void}} [options]
 */
export function rewriteImports(code, from, has, { missing, imports, link = (key) => key, meta, computed } = {}) {
  const [found] = parse(code, from);
  const base = keyOf(from);
  const relative = meta && !from.startsWith(VENDOR);
  /** @type {number[]} */
  const closing = []; // where the wrapped computed imports end, innermost last (they may nest)
  let out = "";
  let at = 0;
  const close = (/** @type {number} */ until) => {
    while (closing.length && closing[closing.length - 1] <= until) {
      const end = /** @type {number} */ (closing.pop());
      out += `${code.slice(at, end)})`;
      at = end;
    }
  };
  for (const item of found) {
    if (item.s < 0) continue;
    close(item.s);
    if (item.n === undefined) {
      if (!relative) continue; // left to the browser
      if (item.d > -1) {
        computed?.();
        out += `${code.slice(at, item.s)}(${resolver(base)})(`; // the expression stays, wrapped
        at = item.s;
        closing.push(item.e);
      } else {
        out += code.slice(at, item.s) + metaObject(base);
        at = item.e;
      }
      continue;
    }
    const key = resolveSpecifier(item.n, from, has, missing);
    if (key === null) continue;
    if (imports) imports.add(key);
    const quoted = item.d > -1; // dynamic import: the range includes the quotes
    const written = link(key);
    out += code.slice(at, item.s) + (quoted ? JSON.stringify(written) : written);
    at = item.e;
  }
  close(Number.POSITIVE_INFINITY);
  return out + code.slice(at);
}

// A module runs from a blob: URL, against which nothing relative resolves. So `import.meta` reads as
// `{url, resolve}` with the module's key (`agentlite-ws:/src/app.js`), and a computed `import(x)` takes
// a relative or absolute path `x` through `resolver`, against that key; bare names and URLs stay. The
// frame's import map and shims know the keys. Both fit on the line they replace, so line numbers stay.
/** @param {string} base the module's key */
export function metaObject(base) {
  return `({url:${JSON.stringify(base)},resolve:${resolver(base)}})`;
}

/** @param {string} base the module's key */
export function resolver(base) {
  return String.raw`(s)=>typeof s==="string"&&/^\.{0,2}\//.test(s)?new URL(s,${JSON.stringify(base)}).href:s`;
}

// CSS: url(...) and @import "..." pointing into the workspace become keys.
/**
 * @param {string} css
 * @param {string} from
 * @param {(path: string) => boolean} has
 * @param {(text: string) => void} [missing]
 */
export function rewriteCss(css, from, has, missing = () => {}) {
  const swap = (/** @type {string} */ ref) => {
    const path = workspacePath(ref, from);
    if (path === null) return null;
    if (!has(path)) missing(`${from}: cannot find "${ref}" (${path})`);
    return keyOf(path);
  };
  return css
    .replace(/url\(\s*(["']?)([^"')]+)\1\s*\)/g, (whole, quote, ref) => {
      const key = swap(ref);
      return key ? `url(${quote}${key}${quote})` : whole;
    })
    .replace(/@import\s+(["'])([^"']+)\1/g, (whole, quote, ref) => {
      const key = swap(ref);
      return key ? `@import ${quote}${key}${quote}` : whole;
    });
}
