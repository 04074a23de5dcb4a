// String-to-code under the second policy (code-policy.js): the browser refuses it, but WebKit sends no
// violation event for an eval refused in an opaque-origin frame (measured, WebKitGTK 2.50), so the ways in
// say it themselves: eval, the function constructors (also as `[].constructor.constructor`) and string
// timers still call the browser's own, and a refusal (an EvalError, or a string timer) becomes the console
// line. An engine that does send the event then skips it (takeEvalNotice). A driver's own evaluation
// (tests) still works.

/** @import { Post } from "./notices.js" */

const EVAL_OFF = "eval/new Function is off in this browser's preview (it could freeze the app)";
let evalSaid = 0; // refusals said by the ways in below whose violation event has not come yet

/** Whether an eval violation event was said already here (and so is to be skipped). */
export function takeEvalNotice() {
  if (evalSaid <= 0) return false;
  evalSaid--;
  return true;
}

/** @param {Post} post */
export function installEvalNotice(post) {
  const say = () => {
    evalSaid++;
    post("error", `Blocked: ${EVAL_OFF}`);
  };
  /** @type {(real: Function, name: string) => Function} */
  const watched = (real, name) => {
    /** @this {unknown} @param {unknown[]} args */
    const instead = function (...args) {
      try {
        return real.apply(this, args);
      } catch (err) {
        if (err instanceof EvalError) say();
        throw err;
      }
    };
    Object.defineProperty(instead, "name", { value: name });
    return instead;
  };
  const globals = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window));
  globals.eval = watched(/** @type {Function} */ (globals.eval), "eval");
  for (const sample of [() => {}, async () => {}, function* () {}, async function* () {}]) {
    const made = Object.getPrototypeOf(sample).constructor;
    const instead = watched(made, made.name);
    instead.prototype = made.prototype;
    Object.defineProperty(made.prototype, "constructor", { value: instead, configurable: true, writable: true });
    if (made === Function) globals.Function = instead;
  }
  for (const name of ["setTimeout", "setInterval"]) {
    const real = /** @type {Function} */ (globals[name]);
    /** @param {unknown[]} args */
    globals[name] = (...args) => {
      if (typeof args[0] !== "function") say();
      return real.apply(window, args);
    };
  }
}
