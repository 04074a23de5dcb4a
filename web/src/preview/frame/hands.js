// The agent's hands on the previewed page, a bundle of its own (dist/preview-hands.js) that runs inside
// the preview frame: the app hands its text over the frame's port the first time preview_snapshot,
// preview_act or preview_wait asks, and the frame keeps the one module for the page's life (its refs
// with it; app-requests.js). Nothing here leaves the frame: the answer is lines of text and flags.
import { Refs, snapshotLines } from "./aria-snapshot.js";
import { Hands } from "./page-actions.js";

const QUIET_MS = 50; // the page counts as settled once its DOM has been still this long after an action
const SETTLE_LIMIT_MS = 1_000;
const WAIT_LIMIT_MS = 30_000;

const refs = new Refs();
const hands = new Hands();

/**
 * @typedef {{op: "snapshot"} | {op: "act", ref: string, action: string, value?: string}
 *   | {op: "wait", text?: string, gone?: boolean, timeoutMs?: number}} Ask
 */

/**
 * @param {Ask} ask
 */
export async function run(ask) {
  if (ask.op === "act") return act(String(ask.ref || ""), String(ask.action || ""), String(ask.value ?? ""));
  if (ask.op === "wait") return wait(String(ask.text || ""), ask.gone === true, Number(ask.timeoutMs) || 0);
  return { lines: snapshot() };
}

function snapshot() {
  return document.body ? snapshotLines(document.body, refs) : [];
}

/**
 * @param {string} ref
 * @param {string} action
 * @param {string} value
 */
async function act(ref, action, value) {
  const found = refs.find(ref);
  if ("error" in found) return { error: found.error };
  const before = snapshot();
  hands.follow = "";
  const error = hands.act(found.element, action, value);
  if (error) return { error: `${action} on ${ref}: ${error}` };
  await settle(SETTLE_LIMIT_MS);
  return { before, after: snapshot(), follow: hands.follow };
}

/**
 * Until `text` shows on the page (or, with `gone`, no longer does), at most `timeoutMs`.
 * @param {string} text
 * @param {boolean} gone
 * @param {number} timeoutMs
 */
async function wait(text, gone, timeoutMs) {
  const limit = Math.max(0, Math.min(timeoutMs, WAIT_LIMIT_MS));
  const started = performance.now();
  const done = () => (text ? shows(text) !== gone : true);
  if (!text) await settle(limit);
  else if (!done()) await until(done, limit);
  return { happened: done(), waitedMs: Math.round(performance.now() - started), lines: snapshot() };
}

/** @param {string} text */
function shows(text) {
  const body = document.body;
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (rendered), as the user sees it
  return Boolean(body && String(body.innerText || body.textContent || "").includes(text));
}

/**
 * Resolves once `done()` holds after a change of the page, or after `limit` ms.
 * @param {() => boolean} done
 * @param {number} limit
 */
function until(done, limit) {
  return new Promise((resolve) => {
    const finish = () => {
      observer.disconnect();
      clearTimeout(timer);
      clearInterval(poll);
      resolve(undefined);
    };
    const observer = new MutationObserver(() => done() && finish());
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const timer = setTimeout(finish, limit);
    const poll = setInterval(() => done() && finish(), 100); // a change of style alone is no mutation
  });
}

/**
 * Resolves once the page's DOM has been still for QUIET_MS (after a task, so the action's timers of 0 ms
 * have run), or after `limit` ms.
 * @param {number} limit
 */
function settle(limit) {
  return new Promise((resolve) => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let quiet;
    const finish = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(timer);
      resolve(undefined);
    };
    const again = () => {
      clearTimeout(quiet);
      quiet = setTimeout(finish, QUIET_MS);
    };
    const observer = new MutationObserver(again);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const timer = setTimeout(finish, limit);
    again();
  });
}
