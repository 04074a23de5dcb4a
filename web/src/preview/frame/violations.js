// What the frame's policies blocked, as console lines: a request ("the preview has no network") or, under
// the second policy (code-policy.js), code made at run time.
import { codeBlocked } from "./code-policy.js";
import { FIXED, MISSING } from "./element-urls.js";
import { takeEvalNotice } from "./eval-notice.js";

/** @import { Post } from "./notices.js" */

/**
 * @param {Post} post
 * @param {boolean} guarded whether the second policy is in force
 */
export function installViolationNotices(post, guarded) {
  document.addEventListener("securitypolicyviolation", (event) => {
    if (FIXED.has(event.blockedURI)) return; // an element made from HTML, pointed at its file since (an engine may try first)
    if (event.blockedURI === MISSING) return; // said already: "Not found: /path"
    if (event.blockedURI === "eval" && takeEvalNotice()) return; // said by eval-notice.js
    const code = guarded && codeBlocked(event);
    if (code) post("error", `Blocked: ${code} is off in this browser's preview (it could freeze the app)`);
    else
      post(
        "error",
        `Blocked: ${event.blockedURI || "a request"} (${event.effectiveDirective}): the preview has no network`,
      );
  });
}
