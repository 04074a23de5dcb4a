// Writing the page into the frame's own document (docs/preview.md): every file of the bundle becomes a
// blob: URL the frame made, module keys map to them through an import map, keys in the HTML and CSS are
// replaced by them; then the page's window is set up (page-window.js) and the page is written with
// document.open(), write(), close().
import { ownCodePolicy } from "./code-policy.js";
import { installElementUrls } from "./element-urls.js";
import { installPageWindow } from "./page-window.js";
import { ownHtml, withoutFrameScripts } from "./trusted-html.js";

/**
 * The page's bundle as the app builds it (web/src/preview/page/page-bundle.js: types only, no code).
 * @typedef {import("../page/page-bundle.js").BundleFile} BundleFile
 * @typedef {import("../page/page-bundle.js").Bundle} PageBundle
 * @typedef {{local?: Record<string, string>, session?: Record<string, string>}} PageStorage
 * @typedef {{type: string, bundle: PageBundle, storage?: PageStorage}} BootMessage
 * What the frame made of the bundle: `files` by workspace path, `urls` (key -> the URL the page gets for
 * it), `imports` (the import map), `paths` (blob: URL -> workspace path, for file:line in errors).
 * @typedef {{files: Record<string, BundleFile>, urls: Record<string, string>, imports: Record<string, string>,
 *   paths: Record<string, string>}} Made
 */

const KEYS = /agentlite-(?:ws|vendor):\/[^\s"'`<>()\\]*/g;
const NO_DNS_PREFETCH = '<meta http-equiv="x-dns-prefetch-control" content="off">';

/**
 * @param {PageBundle} bundle
 * @param {PageStorage} storage
 * @param {MessagePort} port
 * @returns {Promise<void>}
 */
export function showPage(bundle, storage, port) {
  const made = blobUrls(bundle);
  /** @param {string} text */
  const swap = (text) => text.replace(KEYS, (key) => made.urls[key] || key);
  const map = `<script type="importmap">${JSON.stringify({ imports: made.imports }).replace(/</g, "\\u003c")}</script>`;
  let html = withoutFrameScripts(swap(bundle.html), port);
  /** @param {string} policy */
  const write = (policy) => {
    const head = /<head\b[^>]*>/i.exec(html);
    const at = head ? head.index + head[0].length : 0;
    html = html.slice(0, at) + NO_DNS_PREFETCH + map + policy + html.slice(at);
    writePage(html, bundle, storage, port, made);
  };
  if (!bundle.guarded) return Promise.resolve(write(""));
  return ownCodePolicy(html).then(write);
}

/**
 * The blob: URLs of the bundle's files, stylesheets and modules, and the import map over them.
 * @param {PageBundle} bundle
 * @returns {Made}
 */
function blobUrls(bundle) {
  /** @type {Made} */
  const made = {
    files: Object.create(null),
    urls: Object.create(null),
    imports: Object.create(null),
    paths: Object.create(null),
  };
  const { files, urls, imports, paths } = made;
  /** @type {(data: BlobPart, type: string, path?: string) => string} */
  const make = (data, type, path) => {
    const url = URL.createObjectURL(new Blob([data], { type }));
    if (path) paths[url] = path;
    return url;
  };
  for (const f of bundle.files) {
    files[f.path] = f;
    urls[f.key] = make(f.data, f.type, f.path);
  }
  for (const s of bundle.styles) {
    urls[s.key] = make(
      s.css.replace(KEYS, (key) => urls[key] || key),
      "text/css",
      pathOfKey(s.key),
    );
  }
  for (const m of bundle.modules) {
    if (typeof m.code === "string") urls[m.key] = imports[m.key] = make(m.code, "text/javascript", pathOfKey(m.key));
  }
  for (const f of bundle.files) {
    if (imports[f.key]) continue;
    if (f.type === "text/css") imports[f.key] = make(cssModule(urls[f.key]), "text/javascript");
    else if (f.type === "application/json" || f.type === "text/javascript") imports[f.key] = urls[f.key];
    else imports[f.key] = make(`export default ${JSON.stringify(urls[f.key])};`, "text/javascript");
  }
  return made;
}

/**
 * @param {string} html
 * @param {PageBundle} bundle
 * @param {PageStorage} storage
 * @param {MessagePort} port
 * @param {Made} made
 */
function writePage(html, bundle, storage, port, made) {
  document.open();
  installPageWindow(port, bundle, made, storage);
  installElementUrls(bundle.entry, made, port);
  for (const warning of bundle.warnings) console.error(warning);
  document.write(ownHtml(html));
  document.close();
}

/** @param {string} key */
function pathOfKey(key) {
  const rest = key.replace(/^agentlite-(ws|vendor):/, "");
  try {
    return decodeURI(rest);
  } catch {
    return rest;
  }
}

/** @param {string} url */
function cssModule(url) {
  return `const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = ${JSON.stringify(url)}; document.head.append(l); export default ${JSON.stringify(url)};`;
}
