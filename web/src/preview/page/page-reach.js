// Which workspace files a preview frame is handed (docs/preview.md, "What the frame receives"): only what
// the page can reach, so a page cannot read a file it has no business with (a `.env`, the agent's notes).
// The frame gets the files its HTML, CSS and modules name (the resolver's look-ups), the files its code
// names in a string literal, and the web files (by extension) of the entry's folder and below, for what
// a page computes at run time; never a hidden file or folder unless named, never anything under `.git/`.
// At most FRAME_BYTES in all: named files first, then the folder's in path order.
import { folderOf, workspacePath } from "../common/resolve.js";

export const FRAME_BYTES = 16 * 1024 * 1024;
const WEB_FILE =
  /\.(?:html?|css|m?js|jsx|tsx?|mts|json|map|svg|png|jpe?g|gif|webp|avif|bmp|ico|woff2?|ttf|otf|mp3|wav|ogg|oga|mp4|webm|txt|md|csv|tsv|xml|wasm|glsl|obj|gltf|glb)$/i;
const LITERAL = /["'`]([^"'`\s<>(){};,]{1,300})["'`]/g;

/**
 * A file no page is ever handed, named or not.
 * @param {string} path
 */
export function isForbidden(path) {
  return /(?:^|\/)\.git(?:\/|$)/.test(path);
}

/**
 * A file or a folder on its way whose name starts with a dot (`.env`, `.config/x.json`).
 * @param {string} path
 */
export function isHidden(path) {
  return /(?:^|\/)\.[^/]/.test(path);
}

/** Workspace files that a string literal of `text` names, relative to the page and to `from`. A hidden
 * file counts as named only by a literal with a slash ("/.env", "./.config/x.json"): a bare ".env" is as
 * likely a suffix the code compares with.
 * @param {string} text
 * @param {string} from
 * @param {string} entry
 * @param {(path: string) => boolean} has
 */
export function literalPaths(text, from, entry, has) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const [, value] of String(text).matchAll(LITERAL)) {
    if (!/[./]/.test(value)) continue;
    for (const base of from === entry ? [entry] : [entry, from]) {
      const path = workspacePath(value, base);
      if (path !== null && (value.includes("/") || !isHidden(path)) && has(path)) found.add(path);
    }
  }
  return found;
}

/**
 * The paths to hand the frame, in order, within the byte cap; `skipped`: those the cap left out.
 * @param {{entry: string, files: Map<string, {text?: string, bytes?: Uint8Array}>, named: Iterable<string>,
 *   cap?: number}} options
 */
export function reach({ entry, files, named, cap = FRAME_BYTES }) {
  const folder = folderOf(entry);
  const wanted = [entry, ...named];
  const inFolder = [...files.keys()]
    .filter((path) => path.startsWith(folder) && WEB_FILE.test(path) && !isHidden(path.slice(folder.length - 1)))
    .sort();
  const paths = new Set();
  /** @type {string[]} */
  const skipped = [];
  let left = cap;
  for (const path of [...wanted, ...inFolder]) {
    const file = files.get(path);
    if (!file || paths.has(path) || isForbidden(path)) continue;
    const size = file.bytes ? file.bytes.length : /** @type {string} */ (file.text).length;
    if (size > left) {
      if (!skipped.includes(path)) skipped.push(path);
      continue;
    }
    left -= size;
    paths.add(path);
  }
  return { paths, skipped };
}
