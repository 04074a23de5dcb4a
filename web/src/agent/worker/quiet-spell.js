// When the agent is quiet enough for background work: no turn message in and no chat event out for a
// while. The snapshot maker boots a second Pyodide for a few seconds, which on a small machine would
// compete with a streaming reply for the processor, so it runs only in a quiet spell and a turn that
// starts meanwhile aborts it (docs/startup.md).
/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class QuietSpell {
  constructor(/** @type {number} */ quietMs) {
    this.quietMs = quietMs;
    this.last = performance.now();
    /** @type {Set<AbortController>} */
    this.running = new Set(); // controllers of the work begun in the current spell
  }

  /** A turn is active: the spell starts again, and work begun in quiet is aborted. */
  busy() {
    this.last = performance.now();
    for (const controller of this.running) controller.abort();
    this.running.clear();
  }

  /** Resolves once nothing happened for `quietMs`, to a signal that the next `busy()` aborts. */
  async begin() {
    for (let left = this.remaining(); left > 0; left = this.remaining()) await sleep(left);
    const controller = new AbortController();
    this.running.add(controller);
    return controller.signal;
  }

  remaining() {
    return this.last + this.quietMs - performance.now();
  }
}
