// Whether an opaque-origin frame runs on the app's own thread in this engine. Measured (DESIGN field
// notes, docs/preview.md): Chromium gives such a frame its own process; Firefox (153) and WebKitGTK
// (2.50) run it on the page's thread, where a `while (true) {}` froze the whole app for minutes.
// There the page's loops are guarded (loop-guard.js); a page the guard could not parse does not reload by
// itself, and the agent's preview asks before it runs it.
export function framesShareThread(userAgent = globalThis.navigator?.userAgent || "") {
  return !/Chrom(e|ium)\//.test(userAgent); // also "HeadlessChrome/"
}
