// The agent's hands on the previewed page, the app's side (docs/preview.md, "Hands on the page"):
// preview_snapshot, preview_act and preview_wait ask the frame (web/src/preview/frame/hands.js) and add
// what the page said and fetched meanwhile (the console lines, uncaught errors and requests that came in
// over the port while the frame worked). The frame runs the page's code, so its answer is checked: lists
// of strings, cut to a size; anything else is a clear error.

const ACT_TIMEOUT_MS = 10_000;
const WAIT_EXTRA_MS = 5_000; // the frame's own bound comes first
const SNAPSHOT_TIMEOUT_MS = 10_000;
const MAX_LINES = 5_000;
const LINE_CHARS = 1_000;

/**
 * @typedef {{level: string, text: string, uncaught: boolean}} Line
 * @typedef {{method: string, url: string, status: number}} Request
 * @typedef {{lines: Line[], requests: Request[]}} Record
 * @typedef {import("./preview-frame.js").PreviewFrame} PreviewFrame
 * @typedef {ReturnType<typeof createHands>} Hands
 */

/**
 * @param {{frame: PreviewFrame, record: () => Record, entry: () => string | null,
 *   show: (path: string, approve: (unguarded: string[]) => Promise<boolean>) => Promise<object | null>,
 *   navigate: (path: string) => unknown, settled: () => Promise<void>}} previewer
 */
export function createHands({ frame, record, entry, show, navigate, settled }) {
  // A page still "loading" is driven too: its DOM is there (in Firefox the load event of a page that
  // has run can come late).
  const ready = () => ["ready", "loading"].includes(frame.iframe?.dataset.state || "");

  // What came in from `from` (a mark taken before) until now.
  /** @param {{lines: number, requests: number}} from */
  function since(from) {
    const { lines, requests } = record();
    const added = lines.slice(from.lines);
    return {
      logs: added.map(({ level, text }) => ({ level, text })),
      errors: added.filter((line) => line.uncaught).map((line) => line.text),
      requests: requests.slice(from.requests),
    };
  }
  const mark = () => ({ lines: record().lines.length, requests: record().requests.length });

  return {
    /**
     * The page at `path` as a tree; it is shown first unless it is the page shown now.
     * @param {string} path
     * @param {(unguarded: string[]) => Promise<boolean>} approve
     */
    async snapshot(path, approve) {
      const reused = entry() === path && ready();
      /** @type {any} */
      const report = reused ? null : await show(path, approve);
      if (!reused && !report) return null;
      if (report && !ready()) return { ...report, lines: [] };
      const answer = checked(await frame.hands({ op: "snapshot" }, SNAPSHOT_TIMEOUT_MS), ["lines"]);
      return { path, state: frame.iframe?.dataset.state, reused, ...(report || {}), ...answer };
    },
    /**
     * @param {string} ref
     * @param {string} action
     * @param {string} value
     */
    async act(ref, action, value) {
      if (!ready()) return { error: "no page is shown in the preview: call preview_snapshot (or preview_page) first" };
      const from = mark();
      const revision = frame.revision;
      /** @type {any} */
      const raw = await frame.hands({ op: "act", ref, action, value }, ACT_TIMEOUT_MS);
      const answer = checked(raw, ["before", "after"]);
      const follow = raw?.result?.follow;
      // a click on a link to a workspace page loads it, as the user's click does (links.js)
      if (typeof follow === "string" && follow.startsWith("/") && frame.revision === revision) await navigate(follow);
      if (frame.revision === revision || answer.error?.startsWith(`${action} on`)) return { ...answer, ...since(from) };
      // the action loaded another page (a link, a form): its tree from the start
      await frame.ready;
      await settled();
      const now = checked(await frame.hands({ op: "snapshot" }, SNAPSHOT_TIMEOUT_MS), ["lines"]);
      return { navigated: entry(), before: [], after: now.lines || [], error: now.error, ...since(from) };
    },
    /**
     * @param {string} text
     * @param {boolean} gone
     * @param {number} timeoutMs
     */
    async wait(text, gone, timeoutMs) {
      if (!ready()) return { error: "no page is shown in the preview: call preview_snapshot (or preview_page) first" };
      const from = mark();
      const ask = { op: "wait", text, gone, timeoutMs };
      /** @type {any} */
      const raw = await frame.hands(ask, timeoutMs + WAIT_EXTRA_MS);
      const answer = checked(raw, ["lines"]);
      const happened = raw?.result?.happened === true;
      const waitedMs = Number(raw?.result?.waitedMs) || 0;
      return { happened, waited_ms: waitedMs, lines: answer.lines, error: answer.error, ...since(from) };
    },
  };
}

/**
 * The frame's answer with each of `keys` a list of strings (cut to MAX_LINES of LINE_CHARS), or its error.
 * @param {any} answer
 * @param {string[]} keys
 * @returns {{error?: string, [key: string]: any}}
 */
export function checked(answer, keys) {
  if (answer?.error !== undefined) return { error: String(answer.error).slice(0, 2000) };
  const result = answer?.result;
  if (result?.error !== undefined) return { error: String(result.error).slice(0, 2000) };
  /** @type {{[key: string]: any}} */
  const out = {};
  for (const key of keys) {
    const lines = result?.[key];
    if (!Array.isArray(lines) || !lines.every((line) => typeof line === "string"))
      return { error: "the page gave an answer that is not a snapshot" };
    out[key] = lines.slice(0, MAX_LINES).map((line) => line.slice(0, LINE_CHARS));
  }
  return out;
}
