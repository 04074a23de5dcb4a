// The page's window, set up before the page is written (docs/preview.md, "What resolves"): its console,
// errors and blocked requests go to the app; fetch() and XMLHttpRequest read the bundle's files; storage
// lives in the app; the app's requests are answered; a link click goes to the app.
import { installAppRequests } from "./app-requests.js";
import { installConsole } from "./console.js";
import { installEvalNotice } from "./eval-notice.js";
import { installFetch } from "./fetch-shim.js";
import { installLinks } from "./links.js";
import { installLoopCheck } from "./loop-check.js";
import { pagePost, requestNotes } from "./notices.js";
import { installErrorReports } from "./page-errors.js";
import { installStorage } from "./storage.js";
import { installViolationNotices } from "./violations.js";
import { installXhr } from "./xhr.js";

/** @import { Made, PageBundle, PageStorage } from "./page-writer.js" */

/**
 * @param {MessagePort} port
 * @param {PageBundle} bundle
 * @param {Made} made
 * @param {PageStorage} storage
 */
export function installPageWindow(port, bundle, made, storage) {
  const post = pagePost(port, bundle.entry, made.paths);
  installConsole(post);
  installErrorReports(post);
  installViolationNotices(post, bundle.guarded);
  const note = requestNotes(port);
  const realFetch = installFetch(made.files, bundle.entry, post, note);
  installLoopCheck();
  if (bundle.guarded) installEvalNotice(post);
  installXhr(made.files, bundle.entry, realFetch, post, note);
  // The page's base is the entry's workspace path (a browser resolves against the page, not the frame).
  const entryBase = `agentlite-ws:${encodeURI(bundle.entry)}`;
  Object.defineProperty(document, "baseURI", { configurable: true, get: () => entryBase });
  installStorage("localStorage", storage.local || {}, port);
  installStorage("sessionStorage", storage.session || {}, port);
  installAppRequests(port);
  installLinks(entryBase, port, post);
  addEventListener("load", () => {
    port.postMessage({ type: "state", state: "ready", title: document.title });
  });
}
