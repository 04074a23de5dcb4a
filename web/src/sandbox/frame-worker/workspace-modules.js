// browser_js_eval's workspace imports: `await import("/src/math.js")` loads the workspace module, which
// imports its neighbours relatively, through the preview's resolver (preview/common/resolve.js). The agent
// hands the module files with the run; each becomes a blob: module this frame made, its specifiers
// rewritten to its dependencies' blob: URLs (made first, so a circle of imports is an error here).
import { WS, rewriteImports } from "../../preview/common/resolve.js";

/**
 * -> {code, urls}: the eval code with its literal workspace imports pointing at blob: modules.
 * @param {string} code
 * @param {Record<string, string> | undefined} files
 * @returns {{code: string, urls: string[]}}
 */
export function linkWorkspaceImports(code, files) {
  const paths = new Map(Object.entries(files || {}));
  if (!paths.size || !/\bimport\s*\(/.test(code)) return { code, urls: [] };
  const has = (/** @type {string} */ path) => paths.has(path);
  /** @type {Map<string, string>} */
  const made = new Map(); // key -> blob URL
  const visiting = new Set();

  /**
   * @param {string} key
   * @returns {string}
   */
  function link(key) {
    if (!key.startsWith(WS)) return key;
    const known = made.get(key);
    if (known) return known;
    const path = decodeURI(key.slice(WS.length));
    if (!has(path)) throw new Error(`cannot find module ${path} in the workspace`);
    if (visiting.has(key)) throw new Error(`circular import through ${path}: not supported in browser_js_eval`);
    visiting.add(key);
    const text = /** @type {string} */ (paths.get(path)); // has(path), above
    const json = path.endsWith(".json");
    const body = json ? text : rewriteImports(text, path, has, { link });
    const url = URL.createObjectURL(new Blob([body], { type: json ? "application/json" : "text/javascript" }));
    visiting.delete(key);
    made.set(key, url);
    return url;
  }

  let linked = code;
  try {
    linked = rewriteImports(code, "/", has, { link });
  } catch (/** @type {any} */ err) {
    if (/circular import|cannot find module/.test(String(err?.message))) throw err;
    return { code, urls: [] }; // not lexable here: the engine reports its own syntax error
  }
  return { code: linked, urls: [...made.values()] };
}
