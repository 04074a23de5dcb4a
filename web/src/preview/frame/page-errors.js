// The page's uncaught errors and rejections, and elements that failed to load, as console lines.
import { reasonText } from "./console.js";
import { MISSING } from "./element-urls.js";
import { LOOP_LIMIT_MS, stoppedLoop } from "./loop-check.js";

/** @import { Post } from "./notices.js" */

/** @param {Post} post */
export function installErrorReports(post) {
  addEventListener(
    "error",
    (event) => {
      const line = errorLine(event);
      if (line) post("error", line[0], line[1]);
    },
    true,
  );
  addEventListener("unhandledrejection", (event) => {
    post("error", `Uncaught (in promise) ${reasonText(event.reason)}`, true);
  });
}

/**
 * The line for an error event: [text, uncaught], or null for a load error said already.
 * @param {ErrorEvent} event
 * @returns {[string, boolean] | null}
 */
function errorLine(event) {
  const target = /** @type {Partial<HTMLImageElement & HTMLLinkElement> | null} */ (event.target);
  if (target && target !== /** @type {unknown} */ (window) && target.tagName) {
    const src = target.src || target.href || "";
    if (src === MISSING) return null; // said already: "Not found: /path"
    return [`Failed to load <${target.tagName.toLowerCase()}> ${src}`, false];
  }
  const at = event.filename ? ` (${event.filename}:${event.lineno}:${event.colno})` : "";
  let message = String(event.message).replace(/^Uncaught /, ""); // Chromium's message has it already
  const stoppedAt = stoppedLoop();
  if (stoppedAt && !event.error && /^Script error\.?$/.test(message)) {
    // WebKit hides the error of an inline script of this document: the guard's own is known.
    message = `RangeError: preview stopped a loop that ran for more than ${LOOP_LIMIT_MS} ms at ${stoppedAt}`;
  }
  const name = event.error?.name && !message.includes(event.error.name) ? `${event.error.name}: ` : "";
  return [`Uncaught ${name}${message}${at}`, true];
}
