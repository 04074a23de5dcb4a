// Retry status lines: "Retrying (1/2) in 3 s" counts down and says "Retrying (1/2) now…" when the wait is
// over. They hold only while the retry is pending: once a retry answers they are removed; when the turn
// fails anyway they stay as a record ("Retried (1/2) after 3 s: …") above the error banner.

/** Events that show a retry answered. */
const ANSWERED = new Set(["text", "thinking", "tool_started"]);

/** @typedef {import("../agent/page/chat-events.js").ChatEvents["retry"]} RetryEvent */
/** A notice shown: its line, the retry it tells of, the seconds left and the countdown.
 * @typedef {{el: HTMLElement, event: RetryEvent, left: number, timer?: ReturnType<typeof setInterval>}} Shown */

export class RetryNotices {
  constructor() {
    /** @type {Shown[]} */
    this.shown = [];
  }

  /** Show `event` ({attempt, of, wait_s, message}) in `el` (already in the chat); earlier ones are settled. */
  /** @param {HTMLElement} el @param {RetryEvent} event */
  add(el, event) {
    this.settle();
    el.dataset.testid = "retry-notice";
    el.setAttribute("role", "status");
    /** @type {Shown} */
    const entry = { el, event, left: Math.max(0, Math.round(event.wait_s)) };
    const show = () => {
      el.textContent = `Retrying (${event.attempt}/${event.of}) ${entry.left > 0 ? `in ${entry.left} s` : "now…"}: ${event.message}`;
    };
    show();
    entry.timer = setInterval(() => {
      entry.left -= 1;
      show();
      if (entry.left <= 0) clearInterval(entry.timer);
    }, 1000);
    this.shown.push(entry);
  }

  /** Follow the turn: an answer removes the notices, a failure keeps them as a record. */
  /** @param {{kind: string, state?: string}} event */
  see(event) {
    if (!this.shown.length) return;
    if (ANSWERED.has(event.kind) || (event.kind === "message_end" && event.state === "done")) this.remove();
    else if (event.kind === "turn_error" || event.kind === "turn_end") this.settle(true);
  }

  settle(all = false) {
    for (const entry of this.shown) {
      clearInterval(entry.timer);
      const { attempt, of, wait_s: wait, message } = entry.event;
      entry.el.textContent = `Retried (${attempt}/${of}) after ${Math.round(wait)} s: ${message}`;
    }
    if (all) this.shown = [];
  }

  remove() {
    for (const entry of this.shown) {
      clearInterval(entry.timer);
      entry.el.remove();
    }
    this.shown = [];
  }
}
