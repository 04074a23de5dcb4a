// The Preview panel beside the editor: a workspace web page in a frame, its console below, the page to
// show and a reload button. The machinery (dist/preview.js) loads the first time the panel opens.
// `run(path, screenshot)` is preview_page's way in: it opens the panel and reports what the page shows. A change the
// agent made reruns the page only when `agentMayRun()` (the chats auto-approve `js`); else the panel says
// so and its Reload is the user's yes.
import { framesShareThread } from "../preview/page/thread.js";
import { markProposed } from "./proposal.js";

/** @import { CallMethod } from "../agent/page/agent-client.js" */
/** @import { Proposal } from "./proposal.js" */
/** The previewer dist/preview.js makes (web/src/preview/page/index.js), as this panel uses it.
 * @typedef {{ pages(): Promise<string[]>, show(path: string): Promise<unknown>, reload(): unknown,
 *   changed(change: unknown, mayRun: boolean): unknown,
 *   report(path: string, ask: (unguarded: string[]) => Promise<boolean>, screenshot: boolean): Promise<object | null>,
 *   hands: import("../preview/page/hands.js").Hands }} Previewer */

const MAX_LINES = 500;
const LIST_DEBOUNCE_MS = 100; // the entry list follows a burst of writes once
const SAME_THREAD =
  "In this browser a previewed page runs on the app's own thread: the preview stops a loop of the page that runs " +
  "longer than 1 s and refuses eval and code the page adds at run time, but other endless work (a regular " +
  "expression that never ends, a promise chain that calls itself forever) would freeze the app.";

const HELD =
  "The agent changed this page. Its new code has not run: Reload runs it (or allow running JavaScript without " +
  "asking in Settings).";
const HELD_ELSEWHERE = "The workspace changed in another tab. The page has not run again: Reload runs it.";

/** A proposal (docs/review.md) is shown as the active chat's stage holds it: its files are read with the chat.
 * @param {ParentNode} root
 * @param {{ call: (method: CallMethod, args?: object) => Promise<any>, baseUrl: string | URL, onOpen?: () => void,
 *   agentMayRun?: () => boolean, proposal?: Proposal }} options
 */
export function createPreviewView(root, { call, baseUrl, onOpen = () => {}, agentMayRun = () => false, proposal }) {
  const panel = /** @type {HTMLElement} */ (root.querySelector("[data-testid=preview-panel]"));
  const opener = /** @type {HTMLElement} */ (root.querySelector("[data-testid=preview-open]"));
  const select = /** @type {HTMLSelectElement} */ (panel.querySelector("[data-testid=preview-entry]"));
  const status = /** @type {HTMLElement} */ (panel.querySelector(".preview-status"));
  const output = /** @type {HTMLElement} */ (panel.querySelector("[data-testid=preview-console]"));
  /** @type {Promise<Previewer> | null} */
  let previewer = null; // Promise of the machinery's previewer
  /** @type {ReturnType<typeof setTimeout> | null} */
  let listTimer = null;
  const sharesThread = framesShareThread();
  const notice = /** @type {HTMLElement} */ (panel.querySelector(".preview-notice"));
  const held = /** @type {HTMLElement} */ (panel.querySelector("[data-testid=preview-pending]"));
  if (sharesThread) {
    notice.textContent = SAME_THREAD;
    notice.hidden = false;
  }
  const marker = /** @type {HTMLElement} */ (panel.querySelector("[data-testid=preview-proposed]"));
  const showMarker = proposal
    ? markProposed(marker, proposal, {
        after: "The page with the agent's changes, not kept yet.",
        before: "The page as the workspace holds it, before the agent's proposed changes.",
      })
    : () => {};
  /** @type {string | null} the chat whose stage the preview shows: the proposal on view, or the stage
   * the agent's preview_page asked for (its job's `chat`); null: the workspace */
  let staged = null;
  /** The previewer's calls: the files as the shown stage holds them.
   * @param {CallMethod} method @param {object} [args] */
  const previewCall = (method, args) =>
    call(method, method === "vfs.pageFiles" && staged ? { ...args, chat: staged } : args);
  /** @param {string | null} chat */
  const showStage = (chat) => {
    staged = chat;
    showMarker(chat !== null || Boolean(proposal?.active()));
  };
  // The user's toggle reruns the page at once; a change of the agent's follows the rule for its changes.
  proposal?.onChange((by) => {
    showStage(proposal.chat());
    if (by === "agent") stageChanged();
    else if (!panel.hidden && previewer) previewer.then((it) => it.reload());
  });

  /** The proposal on view changed: as a change of the agent's (reload-rule.js). */
  function stageChanged() {
    if (!panel.hidden && previewer && staged)
      previewer.then((it) => it.changed({ type: "stage", author: "agent", paths: ["/"] }, agentMayRun()));
  }

  /** @returns {Promise<Previewer>} */
  function machinery() {
    if (!previewer) {
      previewer = import(new URL("preview.js", baseUrl).href).then((module) =>
        module.createPreviewer({
          slot: panel.querySelector(".preview-slot"),
          call: previewCall,
          baseUrl,
          guard: sharesThread,
          onLog: log,
          onState: (
            /** @type {{ state: string, revision?: number, message?: string }} */ { state, revision, message },
          ) => {
            if (state === "loading") output.replaceChildren();
            status.textContent =
              state === "error" ? `error: ${message}` : state === "loading" ? "loading…" : `revision ${revision}`;
          },
          onNavigate: (/** @type {string} */ path) => open(path),
          onHeld: (/** @type {{ paths?: string[] } | null} */ change) => {
            held.hidden = !change;
            if (change)
              /** @type {HTMLElement} */ (held.querySelector("span")).textContent = change.paths?.length
                ? HELD
                : HELD_ELSEWHERE;
          },
        }),
      );
      previewer.catch(() => (previewer = null));
    }
    return previewer;
  }

  /**
   * @param {string} level
   * @param {string} text
   */
  function log(level, text) {
    const line = document.createElement("li");
    line.dataset.testid = "preview-log";
    line.dataset.level = level;
    line.textContent = text;
    output.append(line);
    while (output.childElementCount > MAX_LINES) /** @type {Element} */ (output.firstElementChild).remove();
    line.scrollIntoView({ block: "nearest" });
  }

  /** @param {string | null} wanted */
  async function fillEntries(wanted) {
    const it = await machinery();
    const pages = await it.pages();
    const chosen = wanted || (pages.includes("/index.html") ? "/index.html" : pages[0] || "/index.html");
    const options = pages.includes(chosen) ? pages : [chosen, ...pages];
    select.replaceChildren(...options.map((path) => new Option(path, path)));
    select.value = chosen;
    return chosen;
  }

  // Open the panel on `path` (else the chosen page) and show it unless `show` is false.
  /**
   * @param {string | null} [path]
   * @param {boolean} [show]
   */
  async function open(path = null, show = true) {
    panel.hidden = false;
    opener.setAttribute("aria-expanded", "true");
    onOpen();
    const entry = await fillEntries(path || select.value || null);
    const it = await machinery();
    if (show) await it.show(entry);
    return it;
  }

  function close() {
    panel.hidden = true;
    opener.setAttribute("aria-expanded", "false");
  }

  opener.addEventListener("click", () => (panel.hidden ? open() : panel.scrollIntoView({ block: "nearest" })));
  /** @type {HTMLElement} */ (panel.querySelector("[data-testid=preview-close]")).addEventListener("click", close);
  for (const reload of panel.querySelectorAll("[data-testid=preview-reload], [data-testid=preview-pending-reload]")) {
    reload.addEventListener("click", () => machinery().then((it) => it.reload()));
  }
  select.addEventListener("change", () => open(select.value));

  return {
    open,
    // The workspace changed: an open preview reloads by itself, or waits when the agent changed it.
    /** @param {unknown} change */
    changed(change) {
      if (panel.hidden || !previewer) return;
      previewer.then((it) => it.changed(change, agentMayRun()));
      clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (listTimer)); // a new page written while the panel is open joins the entry list
      listTimer = setTimeout(() => fillEntries(select.value || null).catch(() => {}), LIST_DEBOUNCE_MS);
    },
    /** @param {string} path @param {boolean} [screenshot] @param {string | null} [chat] the stage to show */
    async run(path, screenshot = false, chat = null) {
      showStage(chat ?? proposal?.chat() ?? null);
      const it = await open(path, false);
      const asking = askingFor(panel, path);
      return (await it.report(path, asking.ask, screenshot)) || asking.declined();
    },
    stageChanged,
    // preview_snapshot, preview_act and preview_wait (payload.op): the panel open on the page the agent
    // works on, so the user watches it follow.
    /** @param {Record<string, unknown>} payload */
    async hands(payload) {
      const path = String(payload.path || "/index.html");
      if (payload.op === "snapshot")
        showStage(typeof payload.chat === "string" ? payload.chat : (proposal?.chat() ?? null));
      const it = await open(payload.op === "snapshot" ? path : null, false);
      if (payload.op === "act")
        return it.hands.act(String(payload.ref || ""), String(payload.action || ""), String(payload.value ?? ""));
      if (payload.op === "wait")
        return it.hands.wait(String(payload.text || ""), payload.gone === true, Number(payload.timeout_ms) || 0);
      const asking = askingFor(panel, path);
      return (await it.hands.snapshot(path, asking.ask)) || asking.declined();
    },
  };
}

// The question a page whose loops could not all be guarded asks before it runs, and the report when the
// user said no.
/**
 * @param {HTMLElement} panel
 * @param {string} path
 */
function askingFor(panel, path) {
  /** @type {string[]} */
  let reasons = [];
  return {
    ask: (/** @type {string[]} */ unguarded) => {
      reasons = unguarded;
      return askFirst(panel, path, unguarded);
    },
    declined: () => {
      const text =
        "the user did not run the page: in this browser a looping page would freeze the app, and the loops of " +
        `these scripts could not be guarded: ${reasons.join("; ")}`;
      return { path, state: "declined", title: "", text: "", logs: [], errors: [], lines: [], message: text };
    },
  };
}

// Where the frame runs on the app's thread and a script's loops could not be guarded (a syntax error, or
// syntax the guard's parser does not know), the agent's preview waits for a yes.
/**
 * @param {HTMLElement} panel
 * @param {string} path
 * @param {string[]} unguarded
 * @returns {Promise<boolean>}
 */
function askFirst(panel, path, unguarded) {
  panel.hidden = false;
  const ask = /** @type {HTMLElement} */ (panel.querySelector(".preview-ask"));
  /** @type {HTMLElement} */ (ask.querySelector("span")).textContent =
    `The agent wants to open ${path} in the preview, but the loops of ${unguarded.join("; ")} could not be ` +
    "guarded: a loop that never ends would freeze the app. Run its scripts?";
  ask.hidden = false;
  return new Promise((resolve) => {
    const answer = (/** @type {boolean} */ yes) => () => {
      ask.hidden = true;
      resolve(yes);
    };
    /** @type {HTMLElement} */ (ask.querySelector("[data-answer=yes]")).onclick = answer(true);
    /** @type {HTMLElement} */ (ask.querySelector("[data-answer=no]")).onclick = answer(false);
  });
}
