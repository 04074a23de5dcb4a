// The preview's machinery, a bundle of its own (dist/preview.js) that the app loads when the preview is
// first opened: the frame, the workspace's files, reloads on change, what preview_page reports, and the
// agent's hands on the page (hands.js).
import { createHands } from "./hands.js";
import { PreviewFrame } from "./preview-frame.js";
import { onChange } from "./reload-rule.js";
import { SHOT_LIMITS, shotReport } from "./shot.js";
import { WorkspaceFiles } from "./workspace-files.js";

const RELOAD_DEBOUNCE_MS = 20; // a burst of writes (one tool call, an undo of a turn) is one reload
const QUIET_MS = 150; // preview_page: the page counts as drawn once its DOM has been still this long
const QUIET_LIMIT_MS = 3_000;
const REPORT_LINES = 200;
const REPORT_TRIES = 3; // loads of the page one preview_page makes at most when changes keep interrupting

/**
 * A workspace change event, as reload-rule.js reads it.
 * @typedef {Parameters<typeof onChange>[0]["change"]} Change
 * @typedef {{level: string, text: string, uncaught: boolean}} Line
 * @typedef {{method: string, url: string, status: number}} Request
 */

// guard: whether to guard the page's loops (the frame shares the app's thread, thread.js); onHeld(change):
// a change the agent made waits for the user's Reload (null: nothing waits any more).
/**
 * @param {{slot: Element, call: (method: string, args: object) => Promise<unknown>, baseUrl: string | URL,
 *   guard?: boolean, onLog: (level: string, text: string) => void,
 *   onState: ConstructorParameters<typeof PreviewFrame>[0]["onState"],
 *   onNavigate: (path: string) => void, onHeld?: (change: Change | null) => void}} options
 */
export function createPreviewer({ slot, call, baseUrl, guard = false, onLog, onState, onNavigate, onHeld = () => {} }) {
  const files = new WorkspaceFiles(call);
  /** @type {Line[]} */
  let lines = []; // the console lines of the current revision
  /** @type {Request[]} */
  let requests = []; // the requests its page made
  /** @type {string | null} */
  let entry = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let held = false; // a change by the agent waits for the user's Reload: nothing reruns the page by itself
  const frame = new PreviewFrame({
    slot,
    files,
    baseUrl,
    guard,
    onLog: (level, text, uncaught) => {
      lines.push({ level, text, uncaught });
      onLog(level, text);
    },
    onState,
    onNavigate,
    onRequest: (request) => requests.push(request),
  });

  /**
   * approve(unguarded): run a page whose loops could not all be guarded? (the user's own Reload or
   * choice of page: yes.)
   * @param {string} path
   * @param {(unguarded: string[]) => Promise<boolean>} [approve]
   */
  function show(path, approve = async () => true) {
    clearTimeout(timer);
    if (held) onHeld(null);
    held = false;
    entry = path;
    lines = [];
    requests = [];
    return frame.show(path, approve);
  }

  // A picture of the page as shown now, or why there is none (shot.js); never throws.
  async function shoot() {
    if (frame.iframe?.dataset.state !== "ready")
      return { screenshot_error: "the page did not load, so it was not pictured" };
    return shotReport(await frame.shoot(SHOT_LIMITS));
  }

  const previewer = {
    show,
    entry: () => entry,
    reload: () => (entry ? show(entry) : Promise.resolve()),
    // A workspace change: reload the open preview once the burst of writes is over, unless the agent made
    // it and may not run code unasked (reload-rule.js): then, and from then on, the preview waits for the
    // user's Reload. A page whose loops could not all be guarded waits for the user's Reload too.
    /**
     * @param {Change} change
     * @param {boolean} [agentMayRun]
     */
    changed(change, agentMayRun = false) {
      if (!entry || held) return;
      const decision = onChange({ change, entry, shown: frame.shown, agentMayRun });
      if (decision === "ignore") return;
      clearTimeout(timer);
      if (decision === "hold") {
        held = true;
        frame.halt(); // a reload under way must not pick up the agent's files either
        onHeld(change);
        return;
      }
      const path = entry;
      timer = setTimeout(() => show(path, async () => false), RELOAD_DEBOUNCE_MS);
    },
    // The HTML files of the workspace, for the entry chooser.
    async pages() {
      const all = await files.load();
      return [...all.keys()].filter((path) => /\.html?$/i.test(path)).sort();
    },
    // preview_page: show `path`, let it draw, and report what it shows and what it said (and, when
    // `screenshot`, a PNG of it or why there is none); null when `approve` declined to run a page whose
    // loops could not all be guarded.
    /**
     * @param {string} path
     * @param {(unguarded: string[]) => Promise<boolean>} approve
     * @param {boolean} [screenshot]
     */
    async report(path, approve, screenshot = false) {
      let declined = false;
      const ask = async (/** @type {string[]} */ unguarded) => {
        declined = !(await approve(unguarded));
        return !declined;
      };
      // A change that arrives while the page loads (the agent's own write, announced late) reloads or
      // halts it: the page is shown again, so the report is of the newest files, never of a halted load.
      for (let tries = 0; tries < REPORT_TRIES; tries++) {
        const shown = show(path, ask);
        const revision = frame.revision;
        await shown;
        if (declined) return null;
        await quiet(frame);
        if (frame.revision === revision) break;
      }
      const { title, text } = await frame.inspect();
      const state = frame.iframe?.dataset.state || "error";
      const errors = lines.filter((line) => line.uncaught).map((line) => line.text);
      const logs = lines.map(({ level, text: line }) => ({ level, text: line }));
      const report = { path, state, title, text, logs: logs.slice(-REPORT_LINES), errors: errors.slice(-REPORT_LINES) };
      const made = { ...report, requests: requests.slice(-REPORT_LINES) };
      return screenshot ? { ...made, ...(await shoot()) } : made;
    },
    shoot,
  };
  const hands = createHands({
    frame,
    record: () => ({ lines, requests }),
    entry: () => entry,
    show: (path, approve) => previewer.report(path, approve),
    navigate: onNavigate, // as a user's click on a link to a workspace page
    settled: () => quiet(frame),
  });
  return { ...previewer, hands };
}

/**
 * Wait until the frame's page has stopped changing its text for QUIET_MS (React renders after load).
 * @param {PreviewFrame} frame
 */
async function quiet(frame) {
  const started = performance.now();
  /** @type {string | null} */
  let last = null;
  while (performance.now() - started < QUIET_LIMIT_MS) {
    const { text } = await frame.inspect();
    if (text === last) return;
    last = text;
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  }
}
