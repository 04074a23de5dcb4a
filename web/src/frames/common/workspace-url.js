// URL -> workspace path: the one resolver of what a previewed page names. The app resolves the
// references it rewrites in a page's HTML, CSS and modules (`workspacePath`); the preview frame resolves
// what the page asks for at run time through fetch, XMLHttpRequest, element URLs and workers
// (`targetOf`). Pure: no DOM and no worker globals, so both realms bundle it and Node tests it.

/** The scheme of a workspace file's key: `agentlite-ws:/path` (docs/preview.md). */
export const WS = "agentlite-ws:";

/**
 * Where a URL the page asks for leads: `path` of a workspace file, `local` for blob: and data: URLs,
 * `network` for anything else, `bad` when it does not parse.
 * @typedef {{path?: string, local?: string, network?: string, bad?: boolean}} Target
 */

/**
 * The WHATWG URL class, which every realm this runs in has (a document, a Worker, Node), read from the
 * global object: the ES library alone does not declare it.
 * @typedef {{href: string, protocol: string, origin: string, pathname: string}} ParsedUrl
 * @typedef {new (url: string, base?: string) => ParsedUrl} UrlClass
 */
const Url = /** @type {{URL: UrlClass}} */ (/** @type {unknown} */ (globalThis)).URL;

/** @param {string} path a workspace path */
export function keyOf(path) {
  return WS + encodeURI(path);
}

/** @param {string} pathname */
function decodedPath(pathname) {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * `reference` parsed against the key of the workspace path `from`, or null when it does not parse.
 * @param {unknown} reference
 * @param {string} from
 * @returns {ParsedUrl | null}
 */
function parsed(reference, from) {
  try {
    return new Url(String(reference), keyOf(from));
  } catch {
    return null;
  }
}

/**
 * The workspace path a URL reference names, relative to `from` (a workspace path), or null when the
 * reference leaves the workspace (another scheme or host, a protocol-relative URL).
 * @param {string} reference
 * @param {string} from
 * @returns {string | null}
 */
export function workspacePath(reference, from) {
  const ref = String(reference).trim();
  if (!ref || ref.startsWith("//") || ref.startsWith("#")) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return null;
  const url = parsed(ref, from);
  return url && decodedPath(url.pathname);
}

/**
 * Where a URL the page asks for at run time leads. Relative URLs resolve against the entry's key; the
 * frame's own address `frameUrl` (what `location`-relative URLs and `new Request("x")` resolve against)
 * stands for the entry's folder, and another path on the frame's server for that workspace path.
 * @param {unknown} url
 * @param {string} entry the page's workspace path
 * @param {string} frameUrl the frame's own address
 * @returns {Target}
 */
export function targetOf(url, entry, frameUrl) {
  const asked = parsed(url, entry);
  if (!asked) return { bad: true };
  if (asked.protocol === "blob:" || asked.protocol === "data:") return { local: asked.href };
  const here = new Url(".", frameUrl);
  let path = null;
  if (asked.protocol === WS) path = asked.pathname;
  else if (asked.origin === here.origin && asked.pathname.startsWith(here.pathname)) {
    path = entry.slice(0, entry.lastIndexOf("/") + 1) + asked.pathname.slice(here.pathname.length);
  } else if (asked.origin === here.origin) path = asked.pathname;
  if (path === null) return { network: asked.href };
  return { path: decodedPath(path) };
}
