// A refresh that may be asked for again while it runs (every workspace change asks): the asks that pile
// up meanwhile collapse into one more run after it, never several at once.

/** `run()` wrapped: calling it runs now, or once more after the run in progress.
 * @template T @param {() => Promise<T>} run @returns {() => Promise<T>} */
export function coalesced(run) {
  /** @type {Promise<T> | null} */
  let running = null;
  let again = false;
  function refresh() {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        refresh();
      }
    });
    return running;
  }
  return refresh;
}
