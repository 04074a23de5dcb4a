// No network that a policy cannot see (docs/preview.md, "No network"). CSP does not govern WebRTC, so the
// peer-connection constructors (every RTC… and webkitRTC… global) are removed before the page runs; a
// Worker has no RTCPeerConnection. XSLT, which could write an attribute the trusted-types policy never
// sees, is removed too. Then the frame's trusted-types policies go in (trusted-html.js).
import { installTrustedTypes } from "./trusted-html.js";

/** @import { HtmlPolicy } from "./trusted-html.js" */

/**
 * @param {MessagePort} port
 * @param {HtmlPolicy | null} policy the frame's own trusted-types policy, made by its bootstrap
 */
export function lockDown(port, policy) {
  const globals = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window));
  for (const name of Object.getOwnPropertyNames(window)) {
    if (!/^(?:webkit|moz)?RTC/.test(name) && name !== "XSLTProcessor") continue;
    try {
      delete globals[name];
    } catch {
      /* below */
    }
    try {
      if (globals[name] !== undefined) {
        Object.defineProperty(window, name, { value: undefined, configurable: false, writable: false });
      }
    } catch {
      /* checked below */
    }
    if (globals[name] !== undefined) throw new Error(`the preview could not remove ${name}`);
  }
  installTrustedTypes(port, policy);
}
