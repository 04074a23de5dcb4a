// Link clicks in the page. A link out of the workspace goes nowhere: the app's policy would refuse the
// frame's navigation, but Chromium opens a connection to the host before it does (docs/preview.md, "No
// network"); that listener comes first of all the click listeners, so the page cannot stop it. A user's
// click on a link to a workspace page asks the app to show that page.

/** @import { Post } from "./notices.js" */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * @param {string} entryBase the key of the page's workspace path
 * @param {MessagePort} port
 * @param {Post} post
 */
export function installLinks(entryBase, port, post) {
  addEventListener(
    "click",
    (event) => {
      const href = linkOf(event, "a[href], area[href]")?.getAttribute("href") || "";
      if (!SCHEME.test(href) || /^javascript:/i.test(href)) return;
      event.preventDefault();
      post("error", `Blocked: a link to ${href}: the preview has no network`);
    },
    true,
  );
  document.addEventListener("click", (event) => {
    const link = /** @type {HTMLAnchorElement | null} */ (linkOf(event, "a[href]"));
    if (!link || link.target === "_blank") return;
    const href = link.getAttribute("href");
    if (!href || href.charAt(0) === "#" || SCHEME.test(href)) return;
    event.preventDefault();
    if (!event.isTrusted) return; // the user's click switches pages; the page's own click() does not
    const path = decodeURIComponent(new URL(href, entryBase).pathname);
    port.postMessage({ type: "navigate", path });
  });
}

/**
 * The clicked element's closest match of `selector`, or null.
 * @param {Event} event
 * @param {string} selector
 */
function linkOf(event, selector) {
  const target = /** @type {Partial<Element> | null} */ (event.target);
  return target?.closest ? target.closest(selector) : null;
}
