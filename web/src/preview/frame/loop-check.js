// The check that guarded loops call (web/src/preview/page/loop-guard.js inserts the calls): true once the
// page's script has held the thread for more than LOOP_LIMIT_MS since its first loop turn of this task. A
// message to ourselves marks the end of the task: it is only delivered once the thread is free again, so
// a chain of microtasks (`while (true) await 0`) counts as one task, as it freezes the thread as one. A
// guarded turn only counts `__agentliteLoopTurns` down and calls the check when it runs out; the check
// sets the next count: it doubles while turns are quick (less than 1 ms since the last check, up to
// MAX_STRIDE turns) and halves when they are slow, so the clock is read about once a millisecond.

export const LOOP_LIMIT_MS = 1000; // as in loop-guard.js
const MAX_STRIDE = 128;
/** @type {string | null} */
let stoppedAt = null;

/** The file:line of the loop stopped in this task, for an engine that hides the error (WebKit, inline scripts). */
export function stoppedLoop() {
  return stoppedAt;
}

export function installLoopCheck() {
  const globals = /** @type {{__agentliteLoopTurns: number}} */ (/** @type {unknown} */ (window));
  const now = performance.now.bind(performance);
  let since = -1;
  let last = 0;
  let stride = 1;
  const free = new MessageChannel();
  free.port1.onmessage = () => {
    since = -1;
    stoppedAt = null;
    globals.__agentliteLoopTurns = 0;
  };
  /** @param {string} at */
  const due = (at) => {
    const time = now();
    if (since < 0) {
      since = last = time;
      stride = 1;
      free.port2.postMessage(0);
    } else if (time - since > LOOP_LIMIT_MS) {
      stoppedAt = at;
      globals.__agentliteLoopTurns = 0; // every later turn of this task checks, and throws
      return true;
    } else {
      stride = time - last < 1 ? Math.min(stride * 2, MAX_STRIDE) : Math.max(stride >> 1, 1);
      last = time;
    }
    globals.__agentliteLoopTurns = stride;
    return false;
  };
  globals.__agentliteLoopTurns = 0;
  Object.defineProperty(window, "__agentliteLoopDue", {
    value: due,
    enumerable: false,
    configurable: false,
    writable: false,
  });
}
