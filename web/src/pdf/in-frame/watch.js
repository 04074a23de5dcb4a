// The PDF parser's Worker bootstrap, and the watch a test may put on each realm of the PDF frame
// (docs/pdf.md, "Nothing compiled"): it counts calls of the realm's `Function` and `eval` and the policy's
// refusals of code made from strings. Each realm first compiles one function of its own (the canary),
// which the frame's policy refuses: the counts then prove both that the watch sees and that the policy
// holds, and a test compares what pdf.js added. Off unless the page asks (`watch` in the boot message).

/**
 * Count, from now on, what `scope` compiles from strings; `target` receives the policy's reports.
 * Self-contained: its source is written into the parser's bootstrap as text.
 * @param {any} scope the realm's global object
 * @param {EventTarget} target where the realm's `securitypolicyviolation` events arrive
 * @returns {{functions: number, evals: number, violations: number}}
 */
export function watchRealm(scope, target) {
  const counts = { functions: 0, evals: 0, violations: 0 };
  const OriginalFunction = scope.Function;
  const originalEval = scope.eval;
  /** @param {...string} args */
  function WatchedFunction(...args) {
    counts.functions++;
    return new OriginalFunction(...args);
  }
  WatchedFunction.prototype = OriginalFunction.prototype;
  scope.Function = WatchedFunction;
  scope.eval = (/** @type {string} */ code) => {
    counts.evals++;
    return originalEval(code);
  };
  target.addEventListener("securitypolicyviolation", (event) => {
    const blocked = /** @type {SecurityPolicyViolationEvent} */ (event).blockedURI;
    if (blocked === "eval" || blocked === "wasm-eval") counts.violations++;
  });
  try {
    new scope.Function("return 0")(); // the canary: the policy must refuse it
  } catch {
    // refused, as it should be
  }
  return counts;
}

/**
 * The source of the parser's classic Worker: its first message brings pdf.worker.js as text (and
 * whether to watch); it imports that from a blob: URL it makes, and pdf.js, once loaded, speaks to the
 * frame over the worker's own messages. A classic worker: Chromium starts no module worker from a blob:
 * URL in an opaque origin.
 * @returns {string}
 */
export function parserBoot() {
  return `"use strict";
var watchRealm = ${watchRealm.toString()};
onmessage = function (event) {
  onmessage = null;
  var counts = event.data.watch ? watchRealm(self, self) : null;
  if (counts) {
    addEventListener("message", function (asked) {
      if (asked.data && asked.data.watch === true) postMessage({ watched: Object.assign({}, counts) });
    });
  }
  var url = URL.createObjectURL(new Blob([event.data.source], { type: "text/javascript" }));
  import(url).catch(function (err) { postMessage({ bootFailed: String((err && err.message) || err) }); });
};
`;
}
