// The page's side of a sandboxed frame (a sandbox frame, web/sandbox/frame.html, or the preview frame,
// web/sandbox/preview.html): the iframe in an opaque origin, and the boot handshake that hands it one
// end of a MessageChannel with its boot message. Everything after boot goes over that port.
//
// Offline, a frame's document can only come from the page's service worker, which a frame sandboxed
// by attribute bypasses: a controlled page lets the worker sandbox it by header instead (the frames
// refuse to start unless their origin is opaque) and sets the attribute once it has loaded, for any
// later navigation.

/** The sandbox every frame of the app gets (written out where it is set): scripts, and nothing else. */
export const FRAME_SANDBOX = "allow-scripts";

/**
 * Whether the page's service worker controls it: then frames are sandboxed by header until they load.
 * @returns {boolean}
 */
export function sandboxedByHeader() {
  return Boolean(globalThis.navigator?.serviceWorker?.controller);
}

/**
 * A new iframe loading `src` in an opaque origin, not yet in the document (the caller places it).
 * It sends no referrer; it is sandboxed by attribute unless the service worker does it by header.
 * @param {string} src
 * @param {boolean} [byHeader] default: sandboxedByHeader()
 * @returns {HTMLIFrameElement}
 */
export function makeSandboxedFrame(src, byHeader = sandboxedByHeader()) {
  const iframe = document.createElement("iframe");
  if (!byHeader) iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("referrerpolicy", "no-referrer");
  iframe.src = src;
  return iframe;
}

/**
 * Call `onFirst` when the frame's document first loads and `onAgain` on every later load: a later load
 * means code in the frame navigated it away, so it is no longer the document the page booted.
 * @param {HTMLIFrameElement} iframe
 * @param {() => void} onFirst
 * @param {() => void} onAgain
 * @returns {void}
 */
export function onFrameLoads(iframe, onFirst, onAgain) {
  let loads = 0;
  iframe.addEventListener("load", () => (loads++ ? onAgain() : onFirst()));
}

/**
 * A promise of the frame's first load (add it before the frame is placed in the document).
 * @param {HTMLIFrameElement} iframe
 * @returns {Promise<void>}
 */
export function firstLoad(iframe) {
  return new Promise((resolve) => iframe.addEventListener("load", () => resolve(), { once: true }));
}

/**
 * The boot handshake, once the frame has loaded: sandbox it by attribute (whatever happens next), and
 * post `message` to its window with one end of a fresh MessageChannel. "*": the frame's origin is
 * opaque; the port travels only to this frame's own window. Returns the page's end of the channel.
 * @template {{type: string}} M
 * @param {HTMLIFrameElement} iframe
 * @param {M} message the boot message (the frame checks its `type`)
 * @returns {MessagePort}
 */
export function bootFrame(iframe, message) {
  iframe.setAttribute("sandbox", "allow-scripts");
  const channel = new MessageChannel();
  /** @type {Window} */ (iframe.contentWindow).postMessage(message, "*", [channel.port2]);
  return channel.port1;
}
