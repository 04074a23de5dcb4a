// The agent worker's watchdog. Pyodide runs Python on the worker's only thread: while a Python step
// runs, nothing else in the worker does, and a step that never ends (a runaway pattern, an endless loop)
// would leave Stop, saves and exports waiting until the tab is reloaded. The watchdog pings the worker
// once a second; worker.js answers from its message loop, so a ping is answered whenever Python is not
// running (between awaits, during downloads and waits). A ping unanswered for HANG_MS means a step that
// ran far longer than any legitimate one (docs/architecture.md, "The agent worker's watchdog"): the
// client then restarts the worker. Pure logic: the clock, the timer and the sending are handed in.

export const PING_EVERY_MS = 1000;
export const HANG_MS = 60_000;
const FROZEN_GAP = 5; // ticks this late: the page itself was frozen or throttled, so measure afresh

export class Watchdog {
  /** `send(id)` posts a ping; `onHang(ms)` is told once when a ping went unanswered for `hangMs`.
   * @param {{send: (id: number) => void, onHang: (ms: number) => void, now?: () => number, every?: number,
   *   hangMs?: number}} parts */
  constructor({ send, onHang, now = () => performance.now(), every = PING_EVERY_MS, hangMs = HANG_MS }) {
    this.send = send;
    this.onHang = onHang;
    this.now = now;
    this.every = every;
    this.hangMs = hangMs;
    this.timer = null;
    this.seq = 0;
    this.waitingSince = null; // when the unanswered ping was sent
    this.lastTick = 0;
    this.hung = false; // told onHang: silent until started again
    this.longestMs = 0; // the longest answer seen: how long the longest step held the worker (a bench hook)
  }

  start() {
    this.stop();
    this.waitingSince = null;
    this.hung = false;
    this.lastTick = this.now();
    this.timer = setInterval(() => this.tick(), this.every);
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  tick() {
    if (this.hung) return;
    const now = this.now();
    const late = now - this.lastTick > this.every * FROZEN_GAP;
    this.lastTick = now;
    if (late) this.waitingSince = null; // a background tab or a suspended page: not the worker's doing
    if (this.waitingSince === null) {
      this.waitingSince = now;
      this.send(++this.seq);
    } else if (now - this.waitingSince >= this.hangMs) {
      this.stop();
      this.hung = true;
      this.onHang(Math.round(now - this.waitingSince));
    }
  }

  /** The worker's answer to ping `id`. @param {number} id */
  answered(id) {
    if (id !== this.seq || this.waitingSince === null) return;
    this.longestMs = Math.max(this.longestMs, Math.round(this.now() - this.waitingSince));
    this.waitingSince = null;
  }
}
